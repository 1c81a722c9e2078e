package dev.threadline.harness.process;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** A child for {@link ChildProcessTest}: prints READY, then {@code ECHO <line>} per stdin line until QUIT. */
public final class EchoChild {
    private EchoChild() {}

    public static void main(String[] args) throws Exception {
        System.err.println("echo child started with " + args.length + " argument(s)");
        System.out.println("READY " + String.join(" ", args));
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null && !line.equals("QUIT")) {
            System.out.println("ECHO " + line);
            System.out.flush();
        }
    }
}
