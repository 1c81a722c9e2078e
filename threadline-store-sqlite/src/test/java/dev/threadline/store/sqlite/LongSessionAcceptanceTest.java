package dev.threadline.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.context.CompactionPlan;
import dev.threadline.core.context.ContextLimits;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.internal.json.RecordCodec;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.llm.SummaryPrompt;
import dev.threadline.core.llm.TokenCounter;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.Threadline;
import dev.threadline.core.runtime.TurnResult;
import dev.threadline.core.skill.builtin.Builtins;
import dev.threadline.core.state.State;
import dev.threadline.core.state.TranscriptValidator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Acceptance: a 500-turn session with a tool call in every turn, under auto-compact with a window of
 * 2,000 tokens, on the SQLite store. It compacts many times; every request the model received passes
 * the transcript validator and fits the window; the journal (as exported) still holds every original
 * message in order; the totals add up; and the session reads back the same from disk.
 */
class LongSessionAcceptanceTest {
    private static final int TURNS = 500;
    private static final int WINDOW = 2_000;
    private static final int MAX_OUTPUT = 128;

    @TempDir
    Path dir;

    /** Turn n asks for n*2 with some words around it; the model calls calculate, then reports the result. */
    private static ScriptedModel model() {
        AtomicInteger ids = new AtomicInteger();
        return ScriptedModel.of(req -> {
            Message last = req.messages().getLast();
            Usage usage = Usage.of(10L * req.messages().size(), 7);
            if (last.role() == Role.USER) {
                String n = last.text().split(" ")[1].replace(":", "");
                ContentBlock.ToolUse call = new ContentBlock.ToolUse("toolu_" + ids.incrementAndGet(), "calculate",
                        dev.threadline.core.json.Json.object().put("expression", n + "*2"));
                return new ChatResponse(List.of(ContentBlock.text("Let me compute that."), call), StopReason.TOOL_USE, usage);
            }
            String result = last.toolResults().getFirst().content();
            return new ChatResponse(List.of(ContentBlock.text("The answer is " + result + ", as the calculator says.")),
                    StopReason.END_TURN, usage);
        }).withContextWindow(WINDOW).recording();
    }

    private static String userText(int n) {
        return "turn " + n + ": please double " + n + " for me, I am keeping a long log of these";
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void fiveHundredTurnsStayInsideASmallWindowAndLoseNothing() {
        Path db = dir.resolve("long.db");
        ScriptedModel model = model();
        SqliteStateStore.Options options = SqliteStateStore.Options.defaults().withSynchronous(SqliteStateStore.Synchronous.NORMAL);
        long started = System.nanoTime();
        Usage turnsTotal = Usage.ZERO;
        State end;
        try (Threadline tl = Threadline.builder().store(SqliteStateStore.open(db, options)).model(model)
                .skills(Builtins.all(dir)).build()) {
            Session s = tl.defaultTenant().create("long", SessionConfig.DEFAULT.withMaxOutputTokens(MAX_OUTPUT));
            for (int n = 1; n <= TURNS; n++) {
                TurnResult r = s.submit(userText(n));
                assertThat(r.outcome()).as("turn %d", n).isEqualTo(TurnResult.Outcome.COMPLETED);
                assertThat(r.reply()).isEqualTo("The answer is " + (2 * n) + ", as the calculator says.");
                turnsTotal = turnsTotal.plus(r.usage());
            }
            end = s.state();
            List<StoredEvent> journal = s.history().journal();
            System.out.printf("500 turns on SQLite: %d events, %d model requests, %d compactions, %.1f s%n", journal.size(),
                    model.requests().size(), journal.stream().filter(e -> e.event() instanceof Event.ContextCompacted).count(),
                    (System.nanoTime() - started) / 1e9);

            List<Event.ContextCompacted> compactions = journal.stream().map(StoredEvent::event)
                    .filter(e -> e instanceof Event.ContextCompacted).map(e -> (Event.ContextCompacted) e).toList();
            assertThat(compactions).hasSizeGreaterThanOrEqualTo(3);

            checkEveryRequest(model.requests());

            List<String> exported = new ArrayList<>();
            long results = 0;
            for (StoredEvent e : journal) {
                ObjectNode line = RecordCodec.exportLine(e);
                if (line.at("/event/type").asText().equals("UserMessageReceived")) {
                    exported.add(line.at("/event/message/content/0/text").asText());
                }
                results += line.at("/event/type").asText().equals("ToolCallCompleted") ? 1 : 0;
            }
            List<String> expected = new ArrayList<>();
            for (int n = 1; n <= TURNS; n++) {
                expected.add(userText(n));
            }
            assertThat(exported).as("every user message, in order, in the export").isEqualTo(expected);
            assertThat(results).isEqualTo(TURNS);
            assertThat(end.messages()).hasSize(4 * TURNS);

            Usage replies = end.messages().stream().map(Message::usage).filter(Objects::nonNull).reduce(Usage.ZERO, Usage::plus);
            Usage summaries = compactions.stream().map(Event.ContextCompacted::usage).reduce(Usage.ZERO, Usage::plus);
            assertThat(end.usage()).isEqualTo(replies.plus(summaries)).isEqualTo(turnsTotal);
        }
        try (Threadline again = Threadline.builder().store(SqliteStateStore.open(db, options)).model(model()).build()) {
            Session s = again.defaultTenant().open("long");
            assertThat(s.state()).as("the same state, compaction included, read back from disk").isEqualTo(end);
            assertThat(s.context().tokens()).isLessThanOrEqualTo(WINDOW - MAX_OUTPUT);
        }
    }

    /** Every model call's request: a valid view within the window, or a summary request without tools that fits too. */
    private static void checkEveryRequest(List<ChatRequest> requests) {
        TokenCounter counter = TokenCounter.approximate();
        ContextLimits limits = ContextLimits.of(WINDOW, MAX_OUTPUT, "", List.of(), counter);
        int summaries = 0;
        for (ChatRequest r : requests) {
            if (SummaryPrompt.isSummaryRequest(r)) {
                summaries++;
                assertThat(r.tools()).isEmpty();
                assertThat(r.messages()).singleElement().extracting(Message::role).isEqualTo(Role.USER);
                assertThat(counter.count(r) + CompactionPlan.summaryMaxTokens(limits)).isLessThanOrEqualTo(WINDOW);
                continue;
            }
            assertThat(TranscriptValidator.violations(r.messages(), TranscriptValidator.Mode.MODEL_VIEW)).isEmpty();
            assertThat(counter.count(r)).isLessThanOrEqualTo(WINDOW - MAX_OUTPUT);
            assertThat(r.maxTokens()).isEqualTo(MAX_OUTPUT);
        }
        assertThat(requests.size() - summaries).isEqualTo(2 * TURNS);
    }
}
