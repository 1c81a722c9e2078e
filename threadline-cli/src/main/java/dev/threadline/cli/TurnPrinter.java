package dev.threadline.cli;

import dev.threadline.core.model.Message;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.TurnListener;
import java.io.PrintWriter;
import java.util.List;
import java.util.function.Supplier;

/**
 * Prints a turn in the chat: tool calls ({@code -> NAME ARGS}), their results ({@code <- RESULT}) and
 * replies. Streamed text comes as "assistant: ..." lines, one per model call, in the order things happen:
 * before the first text of a later model call it prints the tool calls and results the turn has
 * journalled since (so a reply never comes before the call that produced it). Deliveries of one
 * command come one at a time, in order.
 */
final class TurnPrinter {
    private final PrintWriter out;
    private final Supplier<Session> session;
    private int call;
    private boolean any;
    private volatile int shown;

    /** Prints to {@code out} what {@code session} (the chat's current one) journals. */
    TurnPrinter(PrintWriter out, Supplier<Session> session) {
        this.out = out;
        this.session = session;
    }

    /** A listener that streams a turn whose messages start at index {@code from}. */
    TurnListener start(int from) {
        call = 0;
        any = false;
        shown = from;
        return d -> {
            if (d.modelCall() != call) {
                if (call != 0) {
                    out.println();
                }
                List<Message> messages = session.get().state().messages(); // what was journalled before this model call
                printSteps(messages, shown, true);
                shown = messages.size();
                out.print("assistant: ");
                call = d.modelCall();
            }
            any = true;
            out.print(d.text());
            out.flush();
        };
    }

    /** The index of the first message not yet printed while streaming. */
    int shown() {
        return shown;
    }

    /** Ends the current line; true when any text was streamed. */
    boolean end() {
        if (call != 0) {
            out.println();
            call = 0;
        }
        boolean streamed = any;
        any = false;
        shown = 0;
        return streamed;
    }

    /**
     * Prints messages {@code from} on: each tool call ({@code -> NAME ARGS}), each result
     * ({@code <- RESULT}) and, unless it was streamed, each reply's text.
     */
    void printSteps(List<Message> messages, int from, boolean streamed) {
        for (int i = from; i < messages.size(); i++) {
            Message m = messages.get(i);
            switch (m.role()) {
                case ASSISTANT -> {
                    m.toolUses().forEach(u -> out.println("  -> " + u.name() + " " + u.input()));
                    if (!m.text().isBlank() && !streamed) {
                        out.println("assistant: " + m.text());
                    }
                }
                case TOOL -> m.toolResults().forEach(x -> out.println("  <- " + (x.isError() ? "ERROR " : "") + Printer.oneLine(x.content())));
                default -> { }
            }
        }
    }
}
