package dev.threadline.core.internal.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.error.DamagedArchiveException;
import dev.threadline.core.error.ThreadlineException;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.export.ExportLines;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.json.Json;
import dev.threadline.core.runtime.CopyReport;
import dev.threadline.core.runtime.ExportReport;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.StateSnapshot;
import dev.threadline.core.store.CommandRecord;
import dev.threadline.core.store.HistoryBase;
import dev.threadline.core.store.SessionKey;
import dev.threadline.core.store.StateStore;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A tenant's sessions as a JSON Lines file, and back. The file is
 * <pre>
 * {"kind":"threadline-export","v":1,"tenant":T}
 * {"kind":"session","info":{…},"head":H}         one block per session, parents before branches:
 * {"kind":"base","v":V,"base":{…}}                 a pruned session's base (ADR 0045), its events after it,
 * {"v":…,"session":…,"seq":…,"event":{…}}         its own events (the lines of {@link ExportLines}),
 * {"kind":"command","on":S,"id":…,"fingerprint":…,"seq":…,"result":…}   its command records,
 * {"kind":"end","session":S,"lines":N,"sha256":X} the block's trailer: N lines before it, their SHA-256
 * {"kind":"end-of-export","sessions":K}
 * </pre>
 * The checksum is over the block's lines as written (UTF-8, each followed by a newline). An import first
 * reads the whole file and checks every line, block and checksum, and writes nothing when one fails
 * ({@link DamagedArchiveException} naming the line); then it writes each session through a
 * {@link SessionWriter} (so a rerun resumes, and each journal is compared at the end). Stateless.
 */
public final class Archives {
    static final int VERSION = 1;

    private Archives() {}

    /**
     * Writes the tenant's sessions of {@code store} to {@code out}.
     *
     * @throws IOException when {@code out} fails
     */
    public static ExportReport export(StateStore store, String tenant, Writer out) throws IOException {
        ObjectNode head = Json.object();
        head.put("kind", "threadline-export");
        head.put("v", VERSION);
        head.put("tenant", tenant);
        List<SessionInfo> all = StoreCopy.sessions(store, tenant, null);
        long lines = line(out, head.toString());
        int sessions = 0;
        long events = 0;
        for (SessionInfo info : all) {
            SessionSource s = SessionSource.of(store, info);
            SessionKey key = SessionKey.of(info);
            MessageDigest sha = sha256();
            List<String> block = new ArrayList<>();
            ObjectNode h = Json.object();
            h.put("kind", "session");
            h.set("info", Json.parse(RecordCodec.encodeSession(info), "info"));
            h.put("head", s.head());
            block.add(h.toString());
            s.base().ifPresent(b -> block.add(baseLine(b))); // a pruned session's: its events start after it (ADR 0045)
            Map<String, Optional<CommandRecord>> seen = new HashMap<>();
            List<CommandRecord> records = new ArrayList<>();
            boolean first = true;
            for (long lo = s.start() + 1; lo <= s.head(); lo += SessionWriter.CHUNK) {
                for (StoredEvent e : s.readOwn(lo, Math.min(s.head(), lo + SessionWriter.CHUNK - 1))) {
                    block.add(ExportLines.of(e).toString());
                    events++;
                    seen.computeIfAbsent(e.commandId(), id -> s.command(key, id)).filter(c -> c.seq() == e.seq()).ifPresent(records::add);
                    if (first && info.parentId() != null) {
                        s.command(key.sibling(info.parentId()), e.commandId())
                                .filter(c -> c.seq() == info.parentSeq() && key.id().equals(c.result())).ifPresent(records::add);
                    }
                    first = false;
                }
            }
            for (CommandRecord c : records) {
                ObjectNode o = Json.object();
                o.put("kind", "command");
                o.put("on", c.session().id());
                o.put("id", c.commandId());
                o.put("fingerprint", c.fingerprint());
                o.put("seq", c.seq());
                if (c.result() != null) {
                    o.put("result", c.result());
                }
                block.add(o.toString());
            }
            for (String l : block) {
                sha.update((l + "\n").getBytes(StandardCharsets.UTF_8));
                lines += line(out, l);
            }
            ObjectNode end = Json.object();
            end.put("kind", "end");
            end.put("session", info.id());
            end.put("lines", block.size());
            end.put("sha256", HexFormat.of().formatHex(sha.digest()));
            lines += line(out, end.toString());
            sessions++;
        }
        ObjectNode last = Json.object();
        last.put("kind", "end-of-export");
        last.put("sessions", sessions);
        lines += line(out, last.toString());
        out.flush();
        return new ExportReport(tenant, sessions, events, lines);
    }

    /** A pruned session's base line: {@code {"kind":"base","v":V,"base":{…the base as a store keeps it…}}}. */
    private static String baseLine(HistoryBase base) {
        ObjectNode o = Json.object();
        o.put("kind", "base");
        o.put("v", RecordCodec.VERSION);
        o.set("base", Json.parse(RecordCodec.encodeBase(base), "base"));
        return o.toString();
    }

    private static long line(Writer out, String line) throws IOException {
        out.write(line);
        out.write('\n');
        return 1;
    }

    /**
     * Checks the whole file, then writes its sessions to {@code store}, timing the renewals of the store's
     * leases on {@code clock}.
     *
     * @throws DamagedArchiveException when a line, a block or a checksum is wrong (nothing was written)
     * @throws IOException             when the file cannot be read
     */
    public static CopyReport importFile(StateStore store, Path file, java.util.function.Consumer<CopyReport.Copied> progress,
                                        java.time.Clock clock) throws IOException {
        SharedWrites shared = new SharedWrites();
        String tenant = read(file, block -> block.own().forEach(e -> shared.see(block.info(), e)));
        SessionWriter writer = new SessionWriter(store, shared, clock);
        read(file, block -> progress.accept(writer.write(block)));
        return writer.report(tenant);
    }

    /**
     * Checks the whole file and writes nothing: what it holds.
     *
     * @throws DamagedArchiveException when a line, a block or a checksum is wrong
     * @throws IOException             when the file cannot be read
     */
    public static ExportReport check(Path file) throws IOException {
        long[] counts = new long[2];
        String tenant = read(file, block -> {
            counts[0]++;
            counts[1] += block.own().size();
        });
        long lines;
        try (var all = Files.lines(file, StandardCharsets.UTF_8)) {
            lines = all.count();
        }
        return new ExportReport(tenant, (int) counts[0], counts[1], lines);
    }

    /** One checked session block of a file, as a source to write from. */
    private record Block(SessionInfo info, long head, HistoryBase hbase, List<StoredEvent> own, Map<String, CommandRecord> records)
            implements SessionSource {
        @Override
        public Optional<HistoryBase> base() {
            return Optional.ofNullable(hbase);
        }

        @Override
        public List<StoredEvent> readOwn(long fromSeq, long toSeq) {
            int from = (int) (fromSeq - start() - 1);
            int to = (int) Math.min(own.size(), toSeq - start());
            return from >= to ? List.of() : own.subList(Math.max(0, from), to);
        }

        @Override
        public Optional<CommandRecord> command(SessionKey on, String commandId) {
            return Optional.ofNullable(records.get(on.id() + "\0" + commandId));
        }

        @Override
        public Optional<StateSnapshot> snapshot() {
            return Optional.empty();
        }
    }

    /** Reads and checks the file, handing each checked block to {@code blocks}; the file's tenant. */
    private static String read(Path file, java.util.function.Consumer<Block> blocks) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            long n = 0;
            String text = in.readLine();
            n++;
            if (text == null) {
                throw new DamagedArchiveException(1, "the file is empty, not a Threadline export");
            }
            JsonNode first = json(n, text);
            if (!"threadline-export".equals(first.path("kind").asText()) || first.path("v").asInt() != VERSION) {
                throw new DamagedArchiveException(1, "not the first line of a Threadline export (version " + VERSION + ")");
            }
            String tenant = checkedId(n, first.path("tenant").asText(), "tenant");
            int sessions = 0;
            while (true) {
                text = in.readLine();
                n++;
                if (text == null) {
                    throw new DamagedArchiveException(n, "the file ends before its last line (cut off?)");
                }
                JsonNode line = json(n, text);
                String kind = line.path("kind").asText();
                if (kind.equals("end-of-export")) {
                    if (line.path("sessions").asInt(-1) != sessions) {
                        throw new DamagedArchiveException(n, "the file says it holds " + line.path("sessions") + " sessions, it holds " + sessions);
                    }
                    if (in.readLine() != null) {
                        throw new DamagedArchiveException(n + 1, "a line after the end of the export");
                    }
                    return tenant;
                }
                if (!kind.equals("session")) {
                    throw new DamagedArchiveException(n, "expected a session's first line or the end of the export");
                }
                n = block(in, n, text, line, tenant, blocks);
                sessions++;
            }
        }
    }

    /** Reads one block from its first line ({@code text} at line {@code n}) through its trailer; the trailer's line number. */
    private static long block(BufferedReader in, long n, String text, JsonNode header, String tenant,
                              java.util.function.Consumer<Block> blocks) throws IOException {
        long start = n;
        MessageDigest sha = sha256();
        sha.update((text + "\n").getBytes(StandardCharsets.UTF_8));
        SessionInfo info;
        try {
            info = RecordCodec.decodeSession("?", header.path("info").toString());
        } catch (ThreadlineException e) {
            throw new DamagedArchiveException(n, "a session's description that cannot be read (" + e.getMessage() + ")");
        }
        if (!info.tenant().equals(tenant)) {
            throw new DamagedArchiveException(n, "session '" + info.id() + "' is of tenant " + info.tenant() + ", the file's is " + tenant);
        }
        long head = header.path("head").asLong(-1);
        List<StoredEvent> own = new ArrayList<>();
        Map<String, CommandRecord> records = new HashMap<>();
        SessionKey key = SessionKey.of(info);
        HistoryBase base = null;
        long from = info.parentSeq(); // the seq its events start after: its base's when it was pruned
        while (true) {
            text = in.readLine();
            n++;
            if (text == null) {
                throw new DamagedArchiveException(n, "the file ends inside session '" + info.id() + "' (its last line is missing)");
            }
            JsonNode line = json(n, text);
            String kind = line.path("kind").asText("");
            if (kind.equals("end")) {
                String sum = HexFormat.of().formatHex(sha.digest());
                if (!info.id().equals(line.path("session").asText()) || line.path("lines").asLong() != n - start
                        || !sum.equals(line.path("sha256").asText())) {
                    throw new DamagedArchiveException(n, "session '" + info.id() + "' (lines " + start + "-" + (n - 1)
                            + ") does not match its checksum");
                }
                if (head != from + own.size() || own.isEmpty()) {
                    throw new DamagedArchiveException(n, "session '" + info.id() + "' has events up to seq " + (from + own.size())
                            + ", its first line says " + head);
                }
                blocks.accept(new Block(info, head, base, List.copyOf(own), Map.copyOf(records)));
                return n;
            }
            sha.update((text + "\n").getBytes(StandardCharsets.UTF_8));
            if (kind.equals("command")) {
                try {
                    CommandRecord c = new CommandRecord(key.sibling(line.path("on").asText()), line.path("id").asText(),
                            line.path("fingerprint").asText(), line.path("seq").asLong(), line.hasNonNull("result") ? line.path("result").asText() : null);
                    records.put(c.session().id() + "\0" + c.commandId(), c);
                } catch (ThreadlineException e) {
                    throw new DamagedArchiveException(n, "a command record that cannot be read (" + e.getMessage() + ")");
                }
                continue;
            }
            if (kind.equals("base") && base == null && own.isEmpty() && records.isEmpty()) {
                base = base(n, info, line);
                from = base.seq();
                continue;
            }
            if (!kind.isEmpty()) {
                throw new DamagedArchiveException(n, "a line of kind '" + kind + "' inside session '" + info.id() + "'");
            }
            StoredEvent e;
            try {
                e = ExportLines.read(line);
            } catch (RuntimeException ex) {
                throw new DamagedArchiveException(n, "an event that cannot be read (" + ex.getMessage() + ")");
            }
            long expected = from + own.size() + 1;
            if (!e.sessionId().equals(info.id()) || e.seq() != expected) {
                throw new DamagedArchiveException(n, "expected seq " + expected + " of session '" + info.id() + "', found seq " + e.seq()
                        + " of '" + e.sessionId() + "'");
            }
            own.add(e);
        }
    }

    /** A block's base line (right after its first line), checked to be past the session's branch point. */
    private static HistoryBase base(long n, SessionInfo info, JsonNode line) {
        HistoryBase base;
        try {
            base = RecordCodec.decodeBase(info.id(), line.path("v").asInt(-1), line.path("base").toString());
        } catch (ThreadlineException e) {
            throw new DamagedArchiveException(n, "a history base that cannot be read (" + e.getMessage() + ")");
        }
        if (base.seq() <= info.parentSeq()) {
            throw new DamagedArchiveException(n, "session '" + info.id() + "' has a base through seq " + base.seq()
                    + ", not past its branch point " + info.parentSeq());
        }
        return base;
    }

    private static JsonNode json(long n, String text) {
        try {
            JsonNode node = Json.mapper().readTree(text);
            if (node instanceof ObjectNode) {
                return node;
            }
        } catch (IOException | RuntimeException e) {
            // told below
        }
        throw new DamagedArchiveException(n, "not a JSON object");
    }

    private static String checkedId(long n, String id, String what) {
        try {
            return SessionInfo.checkId(id, what);
        } catch (ThreadlineException e) {
            throw new DamagedArchiveException(n, "not a valid " + what + " ('" + id + "')");
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
