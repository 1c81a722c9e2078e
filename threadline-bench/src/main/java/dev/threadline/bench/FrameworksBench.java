package dev.threadline.bench;

import java.io.PrintStream;

final class FrameworksBench {
    private FrameworksBench() {}

    static int run(String[] args, PrintStream out, PrintStream err) {
        err.println("not yet");
        return 2;
    }
}
