package dev.threadline.cli;

import java.io.BufferedReader;
import java.io.Console;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/** Where the REPL's lines come from: a JLine editor on a terminal, or plain lines from a pipe or file. */
interface LineInput extends AutoCloseable {

    /** The next line, or null at the end of input. */
    String readLine(String prompt) throws IOException;

    /** Whether a person is typing (then the input is not echoed back). */
    boolean interactive();

    /**
     * Runs {@code handler} on Ctrl-C (SIGINT) that arrives while no line is being read, i.e. during a
     * turn. Ctrl-C at a prompt ends the input instead (readLine returns null).
     */
    void onInterrupt(Runnable handler);

    @Override
    void close() throws IOException;

    /** A line editor when {@code in} is the standard input of a terminal, else plain lines from {@code in}. */
    static LineInput open(InputStream in) throws IOException {
        return in == System.in && isTerminal() ? new Editor() : new Plain(in, in == System.in);
    }

    private static boolean isTerminal() {
        Console c = System.console();
        if (c == null) {
            return false;
        }
        try { // Console.isTerminal() exists from Java 22; before that a non-null console means a terminal
            return (boolean) Console.class.getMethod("isTerminal").invoke(c);
        } catch (ReflectiveOperationException e) {
            return true;
        }
    }

    /** JLine line editing and history on a real terminal. */
    final class Editor implements LineInput {
        private final Terminal terminal;
        private final LineReader reader;

        Editor() throws IOException {
            terminal = TerminalBuilder.builder().system(true).build();
            reader = LineReaderBuilder.builder().terminal(terminal).build();
        }

        @Override
        public String readLine(String prompt) {
            try {
                return reader.readLine(prompt);
            } catch (EndOfFileException e) {
                return null;
            } catch (UserInterruptException e) {
                return null; // Ctrl-C at the prompt: leave
            }
        }

        @Override
        public boolean interactive() {
            return true;
        }

        @Override
        public void onInterrupt(Runnable handler) {
            terminal.handle(Terminal.Signal.INT, s -> handler.run());
        }

        @Override
        public void close() throws IOException {
            terminal.close();
        }
    }

    /** One line per input from standard input. */
    final class Plain implements LineInput {
        private final BufferedReader in;
        private final boolean processInput;

        /** {@code processInput}: the stream is this process's standard input, so SIGINT is meant for it. */
        Plain(InputStream stream, boolean processInput) {
            this.in = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8));
            this.processInput = processInput;
        }

        @Override
        public String readLine(String prompt) throws IOException {
            return in.readLine();
        }

        @Override
        public boolean interactive() {
            return false;
        }

        /**
         * SIGINT to a process whose input is a pipe ({@code kill -INT}); not installed when the lines come
         * from elsewhere (an embedding program or a test keeps its own signal handling).
         */
        @Override
        public void onInterrupt(Runnable handler) {
            if (processInput) {
                sun.misc.Signal.handle(new sun.misc.Signal("INT"), s -> handler.run());
            }
        }

        @Override
        public void close() {
        }
    }
}
