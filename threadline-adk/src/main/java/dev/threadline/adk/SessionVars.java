package dev.threadline.adk;

/** The session variables this adapter reserves. */
final class SessionVars {
    /**
     * The latest ADK event, as ADK's own JSON; every earlier one is in an earlier step's
     * {@code VariablesChanged}, so the journal is the event list.
     */
    static final String EVENT = "_adk_event";
    /** The metadata key marking sessions written by this adapter, and its value. */
    static final String ADAPTER_KEY = "adapter";
    static final String ADAPTER = "adk";

    private SessionVars() {}
}
