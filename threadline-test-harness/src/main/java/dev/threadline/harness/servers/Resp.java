package dev.threadline.harness.servers;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A minimal RESP client for the test fixture: one command on a fresh socket, its reply as text
 * ({@code OK} for a simple string, {@code -ERR ...}, {@code :1}, or a bulk string's content). It lets the fixture probe a
 * server without Lettuce (which would retry and reconnect on its own). Stateless.
 */
public final class Resp {
    private Resp() {}

    /**
     * The reply to {@code args} from 127.0.0.1:{@code port}; throws IOException when nothing answers.
     *
     * @throws IOException when nothing answers
     */
    public static String call(int port, String... args) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 500);
            s.setSoTimeout(2000);
            OutputStream out = s.getOutputStream();
            StringBuilder cmd = new StringBuilder("*").append(args.length).append("\r\n");
            for (String a : args) {
                byte[] b = a.getBytes(StandardCharsets.UTF_8);
                cmd.append('$').append(b.length).append("\r\n").append(a).append("\r\n");
            }
            out.write(cmd.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = new BufferedInputStream(s.getInputStream());
            String first = line(in);
            if (first.startsWith("$")) {
                int len = Integer.parseInt(first.substring(1));
                if (len < 0) {
                    return null;
                }
                byte[] body = in.readNBytes(len);
                return new String(body, StandardCharsets.UTF_8);
            }
            return first.startsWith("+") ? first.substring(1) : first;
        }
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != -1 && c != '\n') {
            if (c != '\r') {
                b.write(c);
            }
        }
        if (c == -1 && b.size() == 0) {
            throw new IOException("connection closed without a reply");
        }
        return b.toString(StandardCharsets.UTF_8);
    }
}
