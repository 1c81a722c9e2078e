package dev.threadline.core.runtime;

import dev.threadline.core.store.StateStore;
import java.time.Clock;

/**
 * The parts of one runtime that sessions and tenant views work through. Package-private: the engine is
 * not public API. Thread-safe (each part is).
 */
record Engine(StateStore store, Clock clock, StateManager states, LeaseKeeper leases, SessionRunner runner, AgentLoop loop,
              CommandGate gate, String defaultUser) {
}
