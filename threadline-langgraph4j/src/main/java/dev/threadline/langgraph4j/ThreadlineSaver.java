package dev.threadline.langgraph4j;

import dev.threadline.core.error.Require;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.state.VariableScope;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.bsc.langgraph4j.RunnableConfig;
import org.bsc.langgraph4j.checkpoint.AbstractCheckpointSaver;
import org.bsc.langgraph4j.checkpoint.Checkpoint;
import org.bsc.langgraph4j.serializer.StateSerializer;

/**
 * A LangGraph4j checkpoint saver on Threadline: one session per thread id in one tenant, each
 * checkpoint one journal step holding only what changed since the checkpoint written before it (the
 * new items of a list channel that grew, other changed channels whole), so a write costs the step's
 * news, not the whole state. Values are written with the graph's own {@link StateSerializer}. Updates
 * of past checkpoints ({@code updateState} with a checkpoint id) are journalled as replacements, and
 * {@link #release} as a removal: the journal keeps every version.
 *
 * <p>Reads fold the journal once and then only the steps after the last one folded, so they see what
 * other processes wrote. Thread-safe; several savers and processes may share a store.
 */
public final class ThreadlineSaver extends AbstractCheckpointSaver {
    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}");
    private static final int PAGE = 1000;

    private final Tenant tenant;
    private final StateSerializer<?> serializer;
    private final SessionConfig config;
    private final ConcurrentHashMap<String, Fold> folds = new ConcurrentHashMap<>();

    /** A saver whose new sessions get {@link SessionConfig#DEFAULT}; use the graph's serializer ({@code StateGraph.getStateSerializer()}). */
    public ThreadlineSaver(Tenant tenant, StateSerializer<?> serializer) {
        this(tenant, serializer, SessionConfig.DEFAULT);
    }

    /** A saver whose new sessions get {@code config}. */
    public ThreadlineSaver(Tenant tenant, StateSerializer<?> serializer, SessionConfig config) {
        this.tenant = Require.nonNull(tenant, "tenant");
        this.serializer = Require.nonNull(serializer, "serializer");
        this.config = Require.nonNull(config, "config");
    }

    /** The Threadline session id that holds a thread's checkpoints: the thread id, or a hash of it when that is not a valid session id. */
    public static String sessionId(String threadId) {
        if (VALID.matcher(threadId).matches()) {
            return threadId;
        }
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(threadId.getBytes(StandardCharsets.UTF_8));
            return "lg4j-" + HexFormat.of().formatHex(hash, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }

    /** The thread's checkpoints, newest first, as the journal has them now (empty for a thread never saved). */
    @Override
    protected LinkedList<Checkpoint> loadCheckpoints(RunnableConfig config) {
        Optional<Session> session = tenant.find(sessionId(threadId(config)));
        return session.map(s -> new LinkedList<>(caughtUp(s).checkpoints())).orElseGet(LinkedList::new);
    }

    /** Journals a new checkpoint as what changed since the one written before it. */
    @Override
    protected void insertedCheckpoint(RunnableConfig config, LinkedList<Checkpoint> checkpoints, Checkpoint checkpoint) {
        write(config, checkpoint, null);
    }

    /** Journals a checkpoint that replaces the one {@code config} names (an update of past state). */
    @Override
    protected void updatedCheckpoint(RunnableConfig config, LinkedList<Checkpoint> checkpoints, Checkpoint checkpoint) {
        write(config, checkpoint, config.checkPointId().orElse(null));
    }

    /** Journals the release of the thread (its checkpoints stay in the journal) and returns them. */
    @Override
    protected Tag releaseCheckpoints(RunnableConfig config, LinkedList<Checkpoint> checkpoints) {
        String thread = threadId(config);
        tenant.find(sessionId(thread)).ifPresent(SaverWriter::release);
        return new Tag(thread, List.copyOf(checkpoints));
    }

    private void write(RunnableConfig config, Checkpoint checkpoint, String replaces) {
        Session session = tenant.openOrCreate(sessionId(threadId(config)), this.config);
        SaverWriter.write(session, s -> {
            Fold base = caughtUp(session);
            Delta d = Delta.of(base.lastWritten(), checkpoint, replaces);
            return List.<Event>of(new Event.VariablesChanged(VariableScope.SESSION, Map.of(Vars.CHECKPOINT, d.toJson(serializer)), List.of()));
        });
    }

    /** The session's fold, brought up to its journal's end (only the steps after the cached fold are read). */
    private Fold caughtUp(Session session) {
        Fold f = folds.getOrDefault(session.id(), Fold.EMPTY);
        while (true) {
            List<StoredEvent> events = session.history().events(f.seq(), PAGE);
            f = f.plus(events, serializer);
            if (events.size() < PAGE) {
                break;
            }
        }
        Fold latest = f;
        return folds.merge(session.id(), latest, (old, now) -> now.seq() >= old.seq() ? now : old);
    }
}
