package dev.threadline.core;

import dev.threadline.core.internal.engine.CommandGate;
import dev.threadline.core.internal.engine.state.StateManager;
import dev.threadline.core.store.StateStore;

/** The engine's own tests reach a runtime's parts through here (the accessors are package-private: not API). */
public final class EngineAccess {
    private EngineAccess() {}

    /** The runtime's state manager. */
    public static StateManager states(Threadline tl) {
        return tl.states();
    }

    /** The runtime's command gate. */
    public static CommandGate gate(Threadline tl) {
        return tl.gate();
    }

    /** The runtime's store. */
    public static StateStore store(Threadline tl) {
        return tl.store();
    }
}
