package dev.threadline.core.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.Role;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/**
 * The model's form of a transcript ({@link ModelTranscript}) against a plain walk over it: for random
 * transcripts, mostly well formed and with every way of being wrong mixed in (blank and empty messages,
 * results that do not answer, tool_use ids repeated at any distance or within one message, tool blocks
 * after the wrong message), cut at random versions in random order (so the shared structure has often grown
 * past the version asked), every view is the sanitized range it should be, measures what its messages
 * measure one by one, and is valid by the O(log n) check exactly when {@link TranscriptValidator}'s full
 * walk finds nothing (issue 39: validation of what is new agrees with the full check).
 */
class ModelTranscriptProperties {
    private static final ToLongFunction<Message> COUNT = m -> 4 + m.text().length() + 7L * m.content().size();

    @Provide
    Arbitrary<List<Integer>> choices() {
        return Arbitraries.integers().between(0, 99_999).list().ofMinSize(1).ofMaxSize(160);
    }

    @Provide
    Arbitrary<List<Integer>> queries() {
        return Arbitraries.integers().between(0, 99_999).list().ofMinSize(1).ofMaxSize(40);
    }

    @Property(tries = 400)
    void everyViewIsItsRangeMeasuresItsMessagesAndIsCheckedAsTheFullWalkChecksIt(@ForAll("choices") List<Integer> choices,
                                                                                   @ForAll("queries") List<Integer> queries) {
        List<State> versions = versions(choices);
        Object key = new Object();
        for (int q : queries) {
            State s = versions.get(q % versions.size());
            ModelTranscript.Cut cut = ModelTranscript.of(s, key, COUNT);
            List<Message> kept = new ArrayList<>();
            for (Message m : s.messages()) {
                Message clean = ModelTranscript.sanitize(m);
                if (clean != null) {
                    kept.add(clean);
                }
            }
            assertThat(cut.end()).isEqualTo(kept.size());
            int from = (q / 7) % (kept.size() + 1);
            List<Message> head = head(q / 1000);
            ModelTranscript.View view = cut.view(head, from);
            List<Message> expected = new ArrayList<>(head);
            expected.addAll(kept.subList(from, kept.size()));
            assertThat(view).containsExactlyElementsOf(expected);
            assertThat(view.tokens(key, COUNT)).isEqualTo(expected.stream().mapToLong(COUNT).sum());
            assertThat(view.tokens(new Object(), COUNT)).as("a second counter's totals").isEqualTo(expected.stream().mapToLong(COUNT).sum());
            boolean valid = TranscriptValidator.isValid(List.copyOf(expected), TranscriptValidator.Mode.MODEL_VIEW);
            Statistics.label("verdict").collect(valid ? "valid" : "invalid");
            assertThat(view.validModelView()).as("fast check of %s", expected).isEqualTo(valid);
            if (valid) {
                assertThatCode(() -> TranscriptValidator.check(view, TranscriptValidator.Mode.MODEL_VIEW)).doesNotThrowAnyException();
            } else {
                assertThatThrownBy(() -> TranscriptValidator.check(view, TranscriptValidator.Mode.MODEL_VIEW))
                        .isInstanceOf(InvalidInputException.class)
                        .hasMessageContaining(TranscriptValidator.violations(List.copyOf(expected), TranscriptValidator.Mode.MODEL_VIEW).get(0));
            }
            int firstUser = kept.size();
            for (int p = kept.size() - 1; p >= from; p--) {
                firstUser = kept.get(p).role() == Role.USER ? p : firstUser;
            }
            int users = (int) kept.subList(from, kept.size()).stream().filter(m -> m.role() == Role.USER).count();
            assertThat(cut.usersFrom(from)).isEqualTo(users);
            if (users > 0) {
                assertThat(cut.userAt(from, 0)).isEqualTo(firstUser);
            }
        }
        Statistics.label("verdict").coverage(check -> {
            check.check("valid").count(n -> n > 0);
            check.check("invalid").count(n -> n > 0);
        });
    }

    /** Every version of one transcript, grown message by message (so they share one structure). */
    private static List<State> versions(List<Integer> choices) {
        List<State> out = new ArrayList<>();
        State s = new State(0, 0, SessionStatus.IDLE, List.of(), Map.of(), List.of(), Usage.ZERO, 0, null);
        out.add(s);
        List<String> lastUses = List.of();
        int fresh = 0;
        for (int c : choices) {
            Message m;
            int kind = c % 20;
            if (!lastUses.isEmpty() && kind < 14) { // the results, mostly right
                List<ContentBlock.ToolResult> results = new ArrayList<>();
                for (int i = 0; i < lastUses.size(); i++) {
                    String id = c % 97 == 0 ? "stray" : lastUses.get(c % 89 == 0 ? lastUses.size() - 1 - i : i);
                    results.add(new ContentBlock.ToolResult(id, "r" + c, false));
                }
                m = Message.toolResults(c % 83 == 0 ? results.subList(0, results.size() - 1) : results);
            } else if (kind < 6) {
                m = c % 53 == 0 ? new Message(Role.USER, List.of(), null, null) : Message.user(c % 41 == 0 ? "  " : "u" + c);
            } else if (kind < 12) {
                List<ContentBlock> blocks = new ArrayList<>();
                if (c % 3 == 0) {
                    blocks.add(ContentBlock.text(c % 9 == 0 ? " " : "a" + c));
                }
                int uses = (c / 20) % 3;
                List<String> ids = new ArrayList<>();
                for (int k = 0; k < uses; k++) {
                    String id = (c / 60 + k) % 11 == 0 ? "tu" + (c % 5) : "tu-" + (fresh++); // a reuse at any distance
                    id = (c / 60 + k) % 13 == 0 && !ids.isEmpty() ? ids.get(0) : id; // a repeat within the message
                    ids.add(id);
                    blocks.add(new ContentBlock.ToolUse(id, "calc", JsonNodeFactory.instance.objectNode()));
                }
                m = Message.assistant(blocks, uses > 0 ? StopReason.TOOL_USE : StopReason.END_TURN, Usage.ZERO);
            } else if (kind < 15) {
                m = Message.assistantText(c % 2 == 0 ? "" : "b" + c);
            } else if (kind < 17) {
                m = Message.system(c % 2 == 0 ? "s" + c : "\t");
            } else if (kind < 19) {
                m = Message.toolResults(List.of(new ContentBlock.ToolResult("tu" + (c % 5), "x", false)));
            } else { // a tool message with no results
                m = Message.toolResults(List.of());
            }
            lastUses = m.role() == Role.TOOL ? List.of() : m.toolUses().stream().map(ContentBlock.ToolUse::id).toList();
            s = s.withMessage(m, SessionStatus.IDLE, List.of(), Usage.ZERO);
            out.add(s);
        }
        return out;
    }

    /** Nothing, a summary, a summary and a recalled block, or a head a runtime never makes (then the full walk decides). */
    private static List<Message> head(int c) {
        return switch (c % 6) {
            case 0, 1 -> List.of();
            case 2 -> List.of(Message.user("summary"));
            case 3 -> List.of(Message.user("summary"), Message.user("recalled"));
            case 4 -> List.of(Message.assistantText("odd"));
            default -> List.of(Message.user(" "));
        };
    }
}
