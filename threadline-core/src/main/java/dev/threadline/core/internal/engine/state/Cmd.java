package dev.threadline.core.internal.engine.state;

import dev.threadline.core.runtime.CommandOptions;
import dev.threadline.core.runtime.TurnListener;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.SessionKey;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * One command as it runs: the id its events carry (the caller's, or a fresh one), and, for a caller's
 * id, the fingerprint recorded with its first step so that a retry is recognised. Used by one thread.
 */
public final class Cmd {
    private final String id;
    private final boolean callers;
    /** The fingerprint, or null until {@link #fingerprint()} first needs it (then from {@code kind} and {@code args}). */
    private String fingerprint;
    private final String kind;
    private final String args;
    private final String result;
    private final TurnListener listener;
    private boolean recorded;
    /** The recorded tool results of a replay, or null: every call runs its skill. */
    private ToolAnswers answers;

    private Cmd(String id, boolean callers, String fingerprint, String kind, String args, String result, TurnListener listener) {
        this.id = id;
        this.callers = callers;
        this.fingerprint = fingerprint;
        this.kind = kind;
        this.args = args;
        this.result = result;
        this.listener = listener;
    }

    /** A command of {@code kind} with arguments {@code args} (digested), carrying the caller's id if any. */
    public static Cmd of(CommandOptions options, String kind, String args) {
        String callerId = options.commandId().orElse(null);
        // the digest only matters for a caller's id (recorded, compared on a retry): computed when first asked for
        return new Cmd(callerId != null ? callerId : StateManager.newCommandId(), callerId != null, null, kind, args, null,
                options.listener().orElse(null));
    }

    /** An internal command (recovery, a closing step): never recorded. */
    public static Cmd internal() {
        return new Cmd(StateManager.newCommandId(), false, "internal", null, null, null, null);
    }

    /** The same command recording {@code result} (e.g. a fork's new session id) with its record. */
    public Cmd withResult(String result) {
        return new Cmd(id, callers, fingerprint(), null, null, result, listener);
    }

    /** This command answering tool calls from {@code answers} (a replay's), set once before it runs. */
    public Cmd answeredFrom(ToolAnswers answers) {
        this.answers = answers;
        return this;
    }

    /** A replay's recorded tool results, or null when calls run their skills. */
    public ToolAnswers answers() {
        return answers;
    }

    /** Who hears the command's turn stream, or null. */
    public TurnListener listener() {
        return listener;
    }

    public String id() {
        return id;
    }

    public boolean hasCallerId() {
        return callers;
    }

    public String fingerprint() {
        if (fingerprint == null) {
            fingerprint = fingerprint(kind, args);
        }
        return fingerprint;
    }

    /** The record to write with the command's first step at {@code seq} of {@code key}, or null. */
    public CommandRecord recordAt(SessionKey key, long seq) {
        return callers && !recorded ? new CommandRecord(key, id, fingerprint(), seq, result) : null;
    }

    private CommandRecord pendingCreate;

    /** Sets the record {@link #record()} returns for the next create (on the new session, or a fork's source). */
    public Cmd recordOn(SessionKey key, long seq) {
        pendingCreate = recordAt(key, seq);
        return this;
    }

    public CommandRecord record() {
        return pendingCreate;
    }

    public void recorded() {
        recorded = true;
        pendingCreate = null;
    }

    public static String fingerprint(String kind, String args) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest((args == null ? "" : args).getBytes(StandardCharsets.UTF_8));
            return kind + ":" + HexFormat.of().formatHex(d, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** The kind part of a fingerprint, for messages. */
    public static String kindOf(String fingerprint) {
        int colon = fingerprint.indexOf(':');
        return colon < 0 ? fingerprint : fingerprint.substring(0, colon);
    }
}
