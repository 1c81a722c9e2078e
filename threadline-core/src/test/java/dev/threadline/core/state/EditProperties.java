package dev.threadline.core.state;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.IntNode;
import dev.threadline.core.error.InvalidEventException;
import dev.threadline.core.event.Event;
import dev.threadline.core.internal.state.Reducer;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Random edit steps, valid and invalid, after random journals: a step is either refused as a whole
 * (the state is exactly as before) or applied, and every state reached keeps a valid transcript (a
 * valid model view when the session is idle).
 */
class EditProperties {

    @Provide
    Arbitrary<List<Integer>> choices() {
        return Arbitraries.integers().between(0, 999).list().ofMinSize(0).ofMaxSize(60);
    }

    @Provide
    Arbitrary<List<Integer>> edits() {
        return Arbitraries.integers().between(0, 999).list().ofMinSize(1).ofMaxSize(40);
    }

    private static Edit edit(int c, int n) {
        return switch (c % 9) {
            case 0 -> Edit.set("v" + (c % 4), IntNode.valueOf(c));
            case 1 -> Edit.remove("v" + (c % 4));
            case 2 -> new Edit.SetVariable(VariableScope.values()[c % VariableScope.values().length], "s" + c, IntNode.valueOf(n));
            case 3 -> Edit.append(Message.user("said " + c));
            case 4 -> Edit.append(Message.system("note " + c));
            case 5 -> Edit.append(Message.assistantText("reply " + c));
            case 6 -> Edit.append(Message.assistant(List.of(new ContentBlock.ToolUse("ed" + n, "tool",
                    Json.parse("{}", "input"))), StopReason.TOOL_USE, Usage.ZERO));
            case 7 -> Edit.append(Message.toolResults(List.of(new ContentBlock.ToolResult("ed" + n, "ok", false))));
            default -> Edit.append(Message.user(" "));
        };
    }

    @Property(tries = 300)
    void anEditStepIsRefusedWholeOrAppliedAndTheTranscriptStaysValid(@ForAll("choices") List<Integer> journal,
                                                                     @ForAll("edits") List<Integer> edits) {
        State s = RandomJournal.state(journal);
        int applied = 0;
        for (int i = 0; i < edits.size(); i++) {
            int c = edits.get(i);
            List<Edit> step = new ArrayList<>();
            for (int k = 0; k <= c % 3; k++) {
                step.add(edit(c / (k + 1), i * 10 + k));
            }
            State before = s;
            try {
                s = Reducer.apply(s, new Event.StateEdited("ops", "random", step));
                applied++;
                assertThat(before.isIdle()).as("only an idle session is edited").isTrue();
                assertThat(s.status()).as("an edit never changes the status").isEqualTo(before.status());
                assertThat(s.pending()).isEqualTo(before.pending());
            } catch (InvalidEventException refused) {
                assertThat(s).isSameAs(before);
            }
            assertThat(TranscriptValidator.violations(s.messages(), TranscriptValidator.Mode.CHECKPOINT)).isEmpty();
            if (s.isIdle() && applied > 0) {
                List<Message> view = s.messages().subList(s.contextStart(), s.messages().size());
                assertThat(TranscriptValidator.violations(view, TranscriptValidator.Mode.CHECKPOINT)).isEmpty();
                assertThat(view.stream().flatMap(m -> m.toolUses().stream()).filter(u -> u.id().startsWith("ed"))).isEmpty();
            }
        }
    }
}
