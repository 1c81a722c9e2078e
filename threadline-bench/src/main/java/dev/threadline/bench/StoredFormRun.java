package dev.threadline.bench;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.threadline.core.event.Event;
import dev.threadline.core.json.Json;
import dev.threadline.core.internal.runtime.RawSteps;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.SessionConfig;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Threadline;
import dev.threadline.core.store.StateStore;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code threadline bench stored-form}: what the journal's stored form costs against the plainest
 * storage of the same text, all in one run on one database. One conversation grows by one message of
 * 400 characters per step (user and assistant in turn, one event each), committed durably, up to
 * {@code --messages} (default 10,000). Beside it, in the same run and on the same server or file
 * settings: a <em>plain row</em> table {@code (session_id, seq, text)} with its primary key and one
 * INSERT per message, and <em>one JSON document</em> of the same messages in one row. Reported:
 * <ul>
 *   <li>bytes stored per message (Threadline's tables against the plain table, measured by the database),</li>
 *   <li>log bytes written per step over the last {@code --wal-steps} steps (SQLite WAL growth; PostgreSQL WAL
 *       LSN distance),</li>
 *   <li>cold load of the whole session (new store, new runtime, first {@code state()}) against reading the
 *       one JSON document on a new connection and parsing it with Jackson into {@link Message}s; medians of
 *       {@code --repeats} loads, timed alternately.</li>
 * </ul>
 * The backend-specific parts are in {@link StoredFormBackend}.
 */
public final class StoredFormRun {
    /** Characters of text in every message. */
    static final int TEXT_CHARS = 400;

    private StoredFormRun() {}

    /** {@code threadline bench stored-form [--store URL] [--messages N] [--wal-steps N] [--repeats N]}; returns the exit status. */
    public static int main(String[] args, PrintStream out, PrintStream err) throws Exception {
        String store = "sqlite:" + java.nio.file.Path.of(System.getProperty("java.io.tmpdir"), "threadline-bench", "stored-form.db");
        int messages = 10_000;
        int walSteps = 200;
        int repeats = 11;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--store" -> store = value(args, ++i);
                case "--messages" -> messages = Integer.parseInt(value(args, ++i));
                case "--wal-steps" -> walSteps = Integer.parseInt(value(args, ++i));
                case "--repeats" -> repeats = Integer.parseInt(value(args, ++i));
                case "-h", "--help" -> {
                    out.println("usage: threadline bench stored-form [--store sqlite:/path/file.db | postgresql://…]"
                            + " [--messages N] [--wal-steps N] [--repeats N]");
                    return 0;
                }
                default -> {
                    err.println("threadline bench stored-form: unknown option '" + args[i] + "' (try --help)");
                    return 2;
                }
            }
        }
        if (messages < 2 || walSteps < 1 || walSteps >= messages || repeats < 1) {
            err.println("threadline bench stored-form: need --messages >= 2, 1 <= --wal-steps < --messages, --repeats >= 1");
            return 2;
        }
        StoredFormBackend backend = StoredFormBackend.of(store);
        Report r = run(backend, messages, walSteps, repeats, err);
        r.print(out, "threadline bench stored-form " + String.join(" ", args));
        return 0;
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a value");
        }
        return args[i];
    }

    /** The text of message {@code i}: exactly {@link #TEXT_CHARS} characters, different for every i. */
    static String text(long i) {
        StringBuilder b = new StringBuilder(TEXT_CHARS);
        b.append(i % 2 == 0 ? "Question " : "Answer ").append(i).append(": ");
        String filler = "the north region grew twelve percent after the new price list took effect in May, and the"
                + " two accounts that renewed early explain about a third of it; ";
        while (b.length() < TEXT_CHARS) {
            b.append(filler);
        }
        b.setLength(TEXT_CHARS);
        return b.toString();
    }

    /** Message {@code i}: user for even i, the assistant's answer for odd i. */
    static Message message(long i) {
        return i % 2 == 0 ? Message.user(text(i))
                : Message.assistant(List.of(ContentBlock.text(text(i))), StopReason.END_TURN, Usage.of(900, 100));
    }

    /** The one event of the step that records message {@code i}. */
    static Event event(long i) {
        Message m = message(i);
        return i % 2 == 0 ? new Event.UserMessageReceived(m) : new Event.AssistantMessageReceived(m);
    }

    static Report run(StoredFormBackend b, int messages, int walSteps, int repeats, PrintStream err) throws Exception {
        String session = "3f2b8c4e-9d1a-4c57-b0e6-7a5d2e91c804"; // a UUID, as servers name sessions
        Report r = new Report(b.describe(), messages, walSteps, repeats);

        // Threadline: one durable step per message, through the runtime's raw step
        b.resetThreadline();
        try (StateStore store = b.openThreadline(); Threadline runtime = Threadline.builder().store(store).build()) {
            Session s = runtime.defaultTenant().create(session, SessionConfig.DEFAULT);
            long before = b.threadlineBytes();
            long logStart = 0;
            for (int i = 0; i < messages; i++) {
                if (i == messages - walSteps) {
                    logStart = b.logMark(true);
                }
                Event e = event(i);
                RawSteps.update(s, state -> List.of(e));
                if (i % 1000 == 999) {
                    err.printf(Locale.ROOT, "\rthreadline: %,d / %,d messages", i + 1, messages);
                }
            }
            r.threadlineLog = b.logSince(true, logStart);
            r.threadlineBytes = b.threadlineBytes() - before;
            err.println();
        }

        // the plain row: (session_id, seq, text), one INSERT per message, same settings
        b.resetPlain();
        long before = b.plainBytes();
        long logStart = 0;
        for (int i = 0; i < messages; i++) {
            if (i == messages - walSteps) {
                logStart = b.logMark(false);
            }
            b.insertPlain(session, i + 1, text(i));
        }
        r.plainLog = b.logSince(false, logStart);
        r.plainBytes = b.plainBytes() - before;
        b.closePlain();

        // one JSON document of the same messages
        List<Message> all = new ArrayList<>(messages);
        for (int i = 0; i < messages; i++) {
            all.add(message(i));
        }
        b.writeDocument(session, Json.write(all));

        // cold loads, alternately; two of each first to warm the code up
        TypeReference<List<Message>> listOfMessages = new TypeReference<>() {};
        long[] tl = new long[repeats];
        long[] doc = new long[repeats];
        for (int round = -2; round < repeats; round++) {
            long t0 = System.nanoTime();
            int n;
            try (StateStore store = b.openThreadline(); Threadline runtime = Threadline.builder().store(store).build()) {
                n = runtime.defaultTenant().open(session).state().messages().size();
            }
            long t1 = System.nanoTime();
            List<Message> parsed = Json.mapper().readValue(b.readDocument(session), listOfMessages);
            long t2 = System.nanoTime();
            if (n != messages || parsed.size() != messages) {
                throw new IllegalStateException("cold load read " + n + " messages and the document " + parsed.size()
                        + ", expected " + messages);
            }
            if (round >= 0) {
                tl[round] = t1 - t0;
                doc[round] = t2 - t1;
            }
        }
        r.threadlineLoadNanos = median(tl);
        r.documentLoadNanos = median(doc);
        r.threadlineLoads = tl;
        r.documentLoads = doc;
        b.close();
        return r;
    }

    static long median(long[] xs) {
        long[] s = xs.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    /** The figures of one run. */
    static final class Report {
        final String store;
        final int messages;
        final int walSteps;
        final int repeats;
        long threadlineBytes;
        long plainBytes;
        long threadlineLog;
        long plainLog;
        long threadlineLoadNanos;
        long documentLoadNanos;
        long[] threadlineLoads;
        long[] documentLoads;

        Report(String store, int messages, int walSteps, int repeats) {
            this.store = store;
            this.messages = messages;
            this.walSteps = walSteps;
            this.repeats = repeats;
        }

        double bytesRatio() {
            return (double) threadlineBytes / plainBytes;
        }

        double logRatio() {
            return (double) threadlineLog / plainLog;
        }

        double loadRatio() {
            return (double) threadlineLoadNanos / documentLoadNanos;
        }

        void print(PrintStream out, String command) {
            out.printf(Locale.ROOT, "Stored form: %s, %,d messages of %d characters, one per step%n%n", store, messages, TEXT_CHARS);
            out.println("| measure | Threadline | baseline | ratio | target | met |");
            out.println("| --- | ---: | ---: | ---: | ---: | --- |");
            row(out, "bytes stored per message (baseline: plain row)", threadlineBytes / (double) messages,
                    plainBytes / (double) messages, "%,.0f B", bytesRatio(), 1.25);
            row(out, "log bytes written per step, last " + walSteps + " steps (baseline: plain row)",
                    threadlineLog / (double) walSteps, plainLog / (double) walSteps, "%,.0f B", logRatio(), 1.25);
            row(out, "cold load of the session (baseline: one JSON document, read + Jackson), median of " + repeats,
                    threadlineLoadNanos / 1e6, documentLoadNanos / 1e6, "%.1f ms", loadRatio(), 1.5);
            out.println();
            out.printf(Locale.ROOT, "cold loads, ms: Threadline %s; document %s%n", ms(threadlineLoads), ms(documentLoads));
            out.printf(Locale.ROOT, "command: %s%n", command);
        }

        private static void row(PrintStream out, String what, double a, double b, String unit, double ratio, double target) {
            out.printf(Locale.ROOT, "| %s | " + unit + " | " + unit + " | %.2f | <= %.2f | %s |%n", what, a, b, ratio, target,
                    ratio <= target ? "yes" : "**no**");
        }

        private static String ms(long[] xs) {
            StringBuilder b = new StringBuilder();
            for (long x : xs) {
                b.append(b.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT, "%.1f", x / 1e6));
            }
            return b.toString();
        }
    }
}
