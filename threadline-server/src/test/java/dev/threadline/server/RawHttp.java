package dev.threadline.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Requests written byte for byte on a socket, for what an HTTP client would normalise or refuse to
 * send (a {@code %u} escape, a bad chunk size, HTTP/0.9, a body in UTF-16). Each exchange uses its own
 * connection and reads the answer to the end of the stream (the requests say {@code Connection: close}).
 */
final class RawHttp {
    /** An answer: status, headers (names lower-cased, the last value of each), and the body's bytes as sent. */
    record Reply(int status, Map<String, String> headers, byte[] body) {
        String contentType() {
            return headers.getOrDefault("content-type", "");
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private RawHttp() {}

    /** Sends {@code head} (CRLF-terminated lines, the empty line included) and then {@code body}. */
    static Reply exchange(URI server, String head, byte[] body) {
        try (Socket s = new Socket(server.getHost(), server.getPort())) {
            s.setSoTimeout(20_000); // a bound on a broken server, not a wait for anything
            OutputStream out = s.getOutputStream();
            out.write(head.getBytes(StandardCharsets.ISO_8859_1));
            out.write(body);
            out.flush();
            s.shutdownOutput();
            return parse(s.getInputStream().readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A request with a body of {@code body}'s bytes, its length declared, the key and {@code contentType} sent. */
    static Reply send(URI server, String key, String method, String target, String contentType, byte[] body) {
        StringBuilder head = new StringBuilder(method + " " + target + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n");
        if (key != null) {
            head.append("Authorization: Bearer ").append(key).append("\r\n");
        }
        if (contentType != null) {
            head.append("Content-Type: ").append(contentType).append("\r\n");
        }
        if (body.length > 0 || method.equals("POST")) {
            head.append("Content-Length: ").append(body.length).append("\r\n");
        }
        return exchange(server, head.append("\r\n").toString(), body);
    }

    private static Reply parse(byte[] raw) {
        int end = indexOf(raw, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1), 0);
        if (end < 0) {
            throw new IllegalStateException("no complete answer head in " + raw.length + " bytes: "
                    + new String(raw, StandardCharsets.ISO_8859_1));
        }
        String[] lines = new String(raw, 0, end, StandardCharsets.ISO_8859_1).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).strip());
        }
        byte[] body = java.util.Arrays.copyOfRange(raw, end + 4, raw.length);
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = dechunk(body);
        }
        return new Reply(status, headers, body);
    }

    private static byte[] dechunk(byte[] chunked) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int at = 0;
        while (true) {
            int eol = indexOf(chunked, new byte[] {'\r', '\n'}, at);
            int size = Integer.parseInt(new String(chunked, at, eol - at, StandardCharsets.ISO_8859_1).split(";")[0].strip(), 16);
            if (size == 0) {
                return out.toByteArray();
            }
            out.write(chunked, eol + 2, size);
            at = eol + 2 + size + 2;
        }
    }

    private static int indexOf(byte[] in, byte[] what, int from) {
        outer:
        for (int i = from; i <= in.length - what.length; i++) {
            for (int j = 0; j < what.length; j++) {
                if (in[i + j] != what[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /**
     * What the server logs while it runs: slf4j-simple (the tests' binding) writes to whatever
     * {@code System.err} is when it logs, so this swaps in a copy that also keeps the text. Closing
     * restores the old stream. Tests run one at a time (no parallel execution is configured).
     */
    static final class LogCapture implements AutoCloseable {
        private final PrintStream old = System.err;
        private final ByteArrayOutputStream kept = new ByteArrayOutputStream();

        LogCapture() {
            System.setErr(new PrintStream(new TeeStream(old, kept), true, StandardCharsets.UTF_8));
        }

        /** Everything logged so far. */
        synchronized String text() {
            return kept.toString(StandardCharsets.UTF_8);
        }

        @Override
        public void close() {
            System.setErr(old);
        }
    }

    private static final class TeeStream extends OutputStream {
        private final OutputStream a;
        private final ByteArrayOutputStream b;

        TeeStream(OutputStream a, ByteArrayOutputStream b) {
            this.a = a;
            this.b = b;
        }

        @Override
        public synchronized void write(int c) throws IOException {
            a.write(c);
            b.write(c);
        }

        @Override
        public synchronized void write(byte[] buf, int off, int len) throws IOException {
            a.write(buf, off, len);
            b.write(buf, off, len);
        }

        @Override
        public void flush() throws IOException {
            a.flush();
        }
    }
}
