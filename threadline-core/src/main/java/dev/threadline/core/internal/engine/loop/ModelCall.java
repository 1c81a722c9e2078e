package dev.threadline.core.internal.engine.loop;

import dev.threadline.core.error.ThreadlineException;
import dev.threadline.core.internal.engine.live.TurnControl;
import dev.threadline.core.internal.engine.trace.Tracing;
import dev.threadline.core.llm.ModelException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Function;

/**
 * One model call of a turn, cancellable by the turn's interrupt. The call runs on a virtual thread of its
 * own while the turn's thread waits for it; the call is tracked by the turn's {@link TurnControl}, so an
 * interrupt cancels it at once: the call's thread is interrupted (an HTTP provider closes its connection
 * then, see {@code HttpClient.send}) and the turn's thread stops waiting whether the provider honours the
 * interrupt or not. What the call hands to its listener after that is dropped: a {@link Gate} lets
 * deliveries through only while the turn still waits for the call, so none reaches a listener after
 * {@link #run} returned.
 */
final class ModelCall {
    private ModelCall() {}

    /** Thrown by {@link #run} when the turn was interrupted while the model call ran. */
    static final class Cancelled extends RuntimeException {
        Cancelled() {
            super("the model call was cancelled by the turn's interrupt", null, false, false);
        }
    }

    /**
     * Hands a call's deliveries to a listener one at a time, until it is closed. Thread-safe: deliveries
     * come from the call's thread, the close from the turn's.
     */
    static final class Gate {
        private boolean closed;

        /** Runs {@code delivery} unless the gate is closed; deliveries never overlap each other or the close. */
        synchronized void pass(Runnable delivery) {
            if (!closed) {
                delivery.run();
            }
        }

        synchronized void close() {
            closed = true;
        }
    }

    /**
     * Runs {@code call} (given the gate its listener deliveries pass) and returns its answer; a
     * {@link ModelException} or other runtime exception it throws is rethrown as is.
     *
     * The call runs in the caller's trace context ({@code tracing}).
     *
     * @throws Cancelled when the turn was interrupted before the call answered
     */
    static <T> T run(TurnControl control, String name, Tracing tracing, Function<Gate, T> call) {
        Gate gate = new Gate();
        FutureTask<T> task = new FutureTask<>(tracing.wrap(() -> call.apply(gate))); // the call's span, for the provider's traceparent
        control.track(task); // cancels at once when the turn is already interrupted
        try {
            if (!task.isDone()) {
                Thread.ofVirtual().name(name).start(task);
            }
            return task.get();
        } catch (CancellationException e) {
            throw new Cancelled();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            control.interrupt("the turn's thread was interrupted");
            throw new Cancelled();
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException re) {
                throw re;
            }
            if (c instanceof Error err) {
                throw err;
            }
            throw new ThreadlineException("the model call failed: " + c, c);
        } finally {
            gate.close();
            control.untrack(task);
        }
    }
}
