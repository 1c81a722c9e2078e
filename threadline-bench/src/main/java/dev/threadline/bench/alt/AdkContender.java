package dev.threadline.bench.alt;

import com.google.adk.events.Event;
import com.google.adk.sessions.BaseSessionService;
import com.google.adk.sessions.InMemorySessionService;
import com.google.adk.sessions.Session;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.threadline.adk.ThreadlineSessionService;
import dev.threadline.bench.kit.BenchMessage;
import dev.threadline.bench.kit.Contender;
import dev.threadline.core.json.Json;
import dev.threadline.core.Threadline;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Google ADK's session service: its own {@link InMemorySessionService} (ADK Java has no durable one), or
 * the {@code threadline-adk} adapter's {@link ThreadlineSessionService} on a Threadline SQLite file. A
 * step is {@code appendEvent} of one ADK event carrying the message (text, a function call or a function
 * response) as the agent runner appends it. The history is appended event by event (the service has no
 * batch append).
 */
public final class AdkContender implements Contender {
    private static final String APP = "bench";
    private static final String USER = "ann";

    private final OnThreadline tl;
    private final BaseSessionService service;
    private final Map<String, Session> sessions = new ConcurrentHashMap<>();
    private long next;

    /** {@code file} null: ADK's InMemorySessionService; else the adapter on that SQLite file. */
    public AdkContender(Path file) {
        this.tl = file == null ? null : new OnThreadline(file);
        this.service = tl == null ? new InMemorySessionService() : new ThreadlineSessionService(tl.runtime);
    }

    /** The ADK form of a benchmark message. */
    @SuppressWarnings("unchecked") // a JSON object converted to a Map, as Part.fromFunctionCall takes it
    static Event toEvent(BenchMessage m, long index) {
        long turn = index / 4;
        Content content = switch (m.kind()) {
            case USER -> Content.builder().role("user").parts(Part.fromText(m.text())).build();
            case TOOL_CALL -> Content.builder().role("model").parts(Part.fromFunctionCall(m.toolName(),
                    Json.mapper().convertValue(m.input(), Map.class))).build();
            case TOOL_RESULT -> Content.builder().role("user").parts(Part.fromFunctionResponse(m.toolName(),
                    Map.of("result", m.text()))).build();
            case ANSWER -> Content.builder().role("model").parts(Part.fromText(m.text())).build();
        };
        return Event.builder().id("e" + index).invocationId("inv-" + turn)
                .author(m.kind() == BenchMessage.Kind.USER ? "user" : "agent").content(content).timestamp(1_000 + index).build();
    }

    @Override
    public String name() {
        return tl == null ? "ADK InMemorySessionService" : "ADK ThreadlineSessionService (sqlite)";
    }

    @Override
    public String durability() {
        return tl == null ? "none: sessions live in the process's heap" : OnThreadline.durability();
    }

    @Override
    public List<String> cannot() {
        return tl == null ? List.of("nothing survives the process, so no bytes on disk and no cold load") : List.of();
    }

    private Session session(String id) {
        return sessions.computeIfAbsent(id, k -> service.createSession(APP, USER, Map.<String, Object>of(), k).blockingGet());
    }

    @Override
    public synchronized void prefill(String id, List<BenchMessage> history) {
        Session s = session(id);
        for (BenchMessage m : history) {
            service.appendEvent(s, toEvent(m, next++)).blockingGet();
        }
    }

    @Override
    public void step(String id, BenchMessage message) {
        long index;
        synchronized (this) {
            index = next++;
        }
        service.appendEvent(session(id), toEvent(message, index)).blockingGet();
    }

    @Override
    public Optional<Path> database() {
        return tl == null ? Optional.empty() : Optional.of(tl.file);
    }

    @Override
    public OptionalInt coldLoad(String id) {
        if (tl == null) {
            return OptionalInt.empty();
        }
        try (Threadline fresh = tl.fresh()) {
            Session s = new ThreadlineSessionService(fresh).getSession(APP, USER, id, Optional.empty()).blockingGet();
            return OptionalInt.of(s.events().size());
        }
    }

    /** The session as the service gives it (its events and state). */
    @Override
    public Object heldInMemory(String id) {
        return service.getSession(APP, USER, id, Optional.empty()).blockingGet();
    }

    /** The session's events as ADK's JSON. */
    @Override
    public long serializedBytes(String id) {
        long bytes = 0;
        for (Event e : service.getSession(APP, USER, id, Optional.empty()).blockingGet().events()) {
            bytes += e.toJson().getBytes(StandardCharsets.UTF_8).length;
        }
        return bytes;
    }

    @Override
    public void close() {
        if (tl != null) {
            tl.close();
        }
    }
}
