package dev.threadline.bench;

import dev.threadline.bench.kit.JitWarmUp;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.threadline.core.event.Event;
import dev.threadline.core.json.Json;
import dev.threadline.core.testkit.RawSteps;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.Threadline;
import dev.threadline.core.store.StateStore;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;

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
 *   <li>cold load of the whole session (a new runtime, its cache empty, on the store opened once; its first
 *       {@code state()}) against reading the one JSON document on a connection opened once and parsing it with
 *       Jackson into {@link Message}s: the read path the stored form decides. Beside it, reported without a
 *       target, the same with the connections' life around each: a new store opened and closed, a new connection.
 *       Medians of {@code --repeats} rounds, the four parts of a round in a shuffled order, after untimed rounds
 *       until the JIT is quiet ({@link JitWarmUp}).</li>
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
        Report r = new Report(b.describe(), b.sqlite(), messages, walSteps, repeats);

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

        // cold loads, four parts a round in an order shuffled from round to round: Threadline's read path (a new
        // runtime, so an empty cache, on the store opened once: issue 9 item 8's figure) beside the document read on a
        // connection opened once and parsed; and each with its connection's life around it (a new store, opened and
        // closed; a new connection). Untimed rounds first, until the JIT is quiet (JitWarmUp; two rounds in a smoke run)
        TypeReference<List<Message>> listOfMessages = new TypeReference<>() {};
        long[][] times = new long[4][repeats];
        int[] loaded = new int[4];
        try (StateStore open = b.openThreadline(); StoredFormBackend.DocumentReader reader = b.documentReader()) {
            List<JitWarmUp.Round> parts = List.of(
                    i -> loaded[0] = loadOn(open, session),
                    i -> loaded[1] = Json.mapper().readValue(reader.read(session), listOfMessages).size(),
                    i -> {
                        try (StateStore store = b.openThreadline()) {
                            loaded[2] = loadOn(store, session);
                        }
                    },
                    i -> loaded[3] = Json.mapper().readValue(b.readDocument(session), listOfMessages).size());
            List<Integer> order = new ArrayList<>(List.of(0, 1, 2, 3));
            Random shuffle = new Random(messages);
            JitWarmUp.Round round = i -> {
                Collections.shuffle(order, shuffle);
                for (int part : order) {
                    long t0 = System.nanoTime();
                    parts.get(part).run(i);
                    long took = System.nanoTime() - t0;
                    if (loaded[part] != messages) {
                        throw new IllegalStateException("cold load part " + part + " read " + loaded[part] + " messages, expected "
                                + messages);
                    }
                    if (i >= 0) {
                        times[part][i] = took;
                    }
                }
            };
            boolean smoke = repeats < 5;
            JitWarmUp.Outcome warmed = JitWarmUp.run(smoke ? 2 : 10, smoke ? 2 : 150, JitWarmUp.Window.LOADS, JitWarmUp::jitMillis,
                    i -> round.run(-1 - i));
            r.warmUp = warmed.describe();
            for (int i = 0; i < repeats; i++) {
                round.run(i);
            }
        }
        r.threadlineLoadNanos = median(times[0]);
        r.documentLoadNanos = median(times[1]);
        r.threadlineLoads = times[0];
        r.documentLoads = times[1];
        r.lifecycleLoadNanos = median(times[2]);
        r.newConnectionDocumentNanos = median(times[3]);
        b.close();
        return r;
    }

    /** A new runtime on {@code store} (an empty cache; the store stays open) loads the session whole; the messages it holds. */
    private static int loadOn(StateStore store, String session) {
        try (Threadline runtime = Threadline.builder().store(KeptOpen.view(store)).build()) {
            return runtime.defaultTenant().open(session).state().messages().size();
        }
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
        long lifecycleLoadNanos;
        long newConnectionDocumentNanos;
        String warmUp;
        final boolean sqlite;

        Report(String store, boolean sqlite, int messages, int walSteps, int repeats) {
            this.store = store;
            this.sqlite = sqlite;
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
                    threadlineLog / (double) walSteps, plainLog / (double) walSteps, "%,.0f B", logRatio(), sqlite ? 1.25 : Double.NaN);
            row(out, "cold load of the session: a new runtime on the open store (baseline: the JSON document read on an open"
                    + " connection, parsed with Jackson), median of " + repeats, threadlineLoadNanos / 1e6, documentLoadNanos / 1e6,
                    "%.1f ms", loadRatio(), 1.5);
            row(out, "the same with the connections' life: a new store opened and closed around each load (baseline: a new"
                    + " connection for each read), median of " + repeats, lifecycleLoadNanos / 1e6, newConnectionDocumentNanos / 1e6,
                    "%.1f ms", (double) lifecycleLoadNanos / newConnectionDocumentNanos, Double.NaN);
            out.println();
            out.printf(Locale.ROOT, "warm-up: %s; cold loads on the open store, ms: Threadline %s; document %s%n", warmUp,
                    ms(threadlineLoads), ms(documentLoads));
            out.printf(Locale.ROOT, "command: %s%n", command);
        }

        /** A table row; a NaN target is none (the figure is reported, not judged). */
        private static void row(PrintStream out, String what, double a, double b, String unit, double ratio, double target) {
            if (Double.isNaN(target)) {
                out.printf(Locale.ROOT, "| %s | " + unit + " | " + unit + " | %.2f | (none) | n/a |%n", what, a, b, ratio);
                return;
            }
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
