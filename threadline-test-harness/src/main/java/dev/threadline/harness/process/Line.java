package dev.threadline.harness.process;

/**
 * One line a child process printed on stdout.
 *
 * @param index         its position among the child's lines, from 0
 * @param text          the line, without its terminator
 * @param receivedNanos {@link System#nanoTime()} in the test process when the line was read
 */
public record Line(int index, String text, long receivedNanos) {
}
