package dev.threadline.langgraph4j;

/** The session variable each checkpoint is journalled in; removing it records a release. */
final class Vars {
    /** The latest checkpoint's delta; every earlier one is in the journal's earlier {@code VariablesChanged} events. */
    static final String CHECKPOINT = "langgraph4j.checkpoint";

    private Vars() {}
}
