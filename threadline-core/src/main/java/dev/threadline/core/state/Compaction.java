package dev.threadline.core.state;

/** The model sees {@code summary} in place of the messages before index {@code boundary}. */
public record Compaction(String summary, int boundary) {
}
