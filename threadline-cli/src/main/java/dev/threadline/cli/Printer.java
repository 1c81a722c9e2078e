package dev.threadline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.event.Event;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.event.Checkpoint;
import dev.threadline.core.state.State;
import dev.threadline.core.store.SessionSummary;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Plain-text views of sessions, transcripts, checkpoints and variables for the terminal. */
final class Printer {
    private Printer() {}

    /**
     * One line of a session list: id, status ({@code idle}, {@code running}, {@code awaiting_approval},
     * {@code awaiting_input}), journal head and last change; a branch says whether it is a rewind or a
     * fork of its parent, and where. The summary holds no status, so each line reads its session's state.
     */
    static String summaryLine(Tenant tenant, SessionSummary r) {
        SessionInfo i = r.info();
        String status = tenant.find(i.id()).map(s -> s.state().status().wireName()).orElse("deleted");
        return String.format("%-24s %-17s seq %-6d updated %s%s", i.id(), status, r.headSeq(), r.updatedAt(), origin(tenant, i));
    }

    /**
     * "  (rewind of P at seq N)" or "  (fork of P at seq N)", from the branch's first own event; empty for
     * a session that is no branch.
     */
    static String origin(Tenant tenant, SessionInfo i) {
        if (i.parentId() == null) {
            return "";
        }
        String kind = tenant.find(i.id()).map(s -> s.history().events(i.parentSeq(), 1)).orElse(List.of()).stream()
                .map(e -> e.event() instanceof Event.BranchCreated b ? b.reason() : "")
                .filter(reason -> reason.startsWith("rewind") || reason.startsWith("fork"))
                .map(reason -> reason.startsWith("rewind") ? "rewind" : "fork")
                .findFirst().orElse("branch");
        return "  (" + kind + " of " + i.parentId() + " at seq " + i.parentSeq() + ")";
    }

    static void describe(PrintWriter out, Tenant tenant, Session s) {
        SessionInfo i = s.info();
        State st = s.state();
        out.println("session  " + i.id() + origin(tenant, i));
        out.println("created  " + i.createdAt() + "   tenant " + i.tenant() + "   user " + i.userId());
        out.println("model    " + SessionModel.describe(s.config()) + "   policy " + i.config().contextPolicy());
        out.println("state    " + st.status().wireName() + " at seq " + st.seq() + ", " + st.messages().size() + " messages, "
                + st.variables().size() + " variables, tokens in/out " + st.usage().inputTokens() + "/" + st.usage().outputTokens());
    }

    /** The transcript, one block a line, numbered by turn. */
    static void history(PrintWriter out, State st) {
        if (st.messages().isEmpty()) {
            out.println("(no messages yet)");
            return;
        }
        int turn = 0;
        for (int idx = 0; idx < st.messages().size(); idx++) {
            if (idx == st.contextStart() && idx > 0) {
                out.println("---- context cleared here (earlier messages stay in the journal) ----");
            }
            Message m = st.messages().get(idx);
            switch (m.role()) {
                case USER -> out.println("[" + (++turn) + "] you: " + m.text());
                case SYSTEM -> out.println("    system: " + m.text());
                case ASSISTANT -> {
                    for (ContentBlock b : m.content()) {
                        switch (b) {
                            case ContentBlock.Text t -> out.println("    assistant: " + t.text());
                            case ContentBlock.ToolUse u -> out.println("    assistant -> " + u.name() + " " + u.input());
                            case ContentBlock.Thinking th -> out.println("    (thinking) " + th.thinking());
                            default -> out.println("    assistant: [" + b.getClass().getSimpleName() + "]");
                        }
                    }
                }
                case TOOL -> m.toolResults().forEach(r -> out.println("    tool <- " + (r.isError() ? "ERROR " : "") + oneLine(r.content())));
            }
        }
        if (st.isSuspended()) {
            out.println("    (" + st.awaiting().size() + " tool call(s) wait for you: /approvals)");
        } else if (!st.pending().isEmpty()) {
            out.println("    (" + st.pending().size() + " tool call(s) still running)");
        }
    }

    static void checkpoints(PrintWriter out, List<Checkpoint> cps, List<dev.threadline.core.runtime.SideEffect> effects) {
        out.println("  seq  step  source  time                      what");
        for (Checkpoint c : cps) {
            long after = effects.stream().filter(e -> e.seq() > c.seq()).count();
            out.println(String.format("%5d %5d  %-6s  %-24s  %s%s", c.seq(), c.step(), c.source().wireName(),
                    c.time().truncatedTo(java.time.temporal.ChronoUnit.MILLIS), c.preview(),
                    after == 0 ? "" : "   [" + after + " side effect" + (after == 1 ? "" : "s") + " after]"));
        }
        if (!effects.isEmpty()) {
            out.println("(side effects: " + String.join("; ", effects.stream().map(dev.threadline.core.runtime.SideEffect::describe).toList())
                    + "; going back before one needs --force)");
        }
        out.println("(/rewind SEQ goes back to a checkpoint and continues on branch ID.rN; /fork SEQ starts a separate session ID.fN there)");
    }

    /**
     * Search hits, best first: seq, role, time and excerpt, a hit of another session (a branch's shared prefix)
     * with its session's id first; or one line saying nothing matched.
     *
     * @param shownTenant how the tenant is named after the session id ("" for the default one)
     */
    static void searchHits(PrintWriter out, String sessionId, String shownTenant, String query, List<dev.threadline.core.model.SearchHit> hits) {
        if (hits.isEmpty()) {
            out.println("Nothing in session " + sessionId + shownTenant + " matches \"" + query + "\".");
        }
        for (dev.threadline.core.model.SearchHit h : hits) {
            out.println((h.session().equals(sessionId) ? "" : h.session() + " ") + "seq " + h.seq() + "  "
                    + h.role().name().toLowerCase(java.util.Locale.ROOT) + "  " + h.time() + "  " + h.snippet());
        }
    }

        static void variables(PrintWriter out, String scope, Map<String, JsonNode> vars) {
        if (vars.isEmpty()) {
            out.println(scope + ": (none)");
            return;
        }
        out.println(scope + ":");
        new TreeMap<>(vars).forEach((k, v) -> out.println("  " + k + " = " + v));
    }

    static String oneLine(String s) {
        String flat = s.replace('\n', ' ');
        return flat.length() > 200 ? flat.substring(0, 199) + "…" : flat;
    }
}
