package dev.threadline.core.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.json.Json;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A step's events folded twice from one state ({@code Session.recordStep} checks them, then the step folds them) share
 * the tool_use ids' structure instead of copying the whole history's ids; a different message at the same place still
 * gets a copy of its own, and each version sees exactly its own ids.
 */
class ToolUseIdsSharingTest {
    private static Message call(String id) {
        return Message.assistant(List.of(new ContentBlock.ToolUse(id, "clock", Json.object())), StopReason.TOOL_USE, Usage.ZERO);
    }

    @Test
    void the_same_message_folded_twice_from_one_version_shares_the_ids() {
        List<Message> history = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            history.add(call("t" + i));
        }
        ToolUseIds ids = ToolUseIds.of(history);
        Message next = call("next");

        ToolUseIds checked = ids.plus(next);
        ToolUseIds folded = ids.plus(next);

        assertThat(folded.sharesWith(checked)).isTrue();
        assertThat(folded.contains("next")).isTrue();
        assertThat(folded.messageIndexOf("t7")).isEqualTo(7);
        assertThat(folded).isEqualTo(checked);
        assertThat(ids.contains("next")).isFalse();
    }

    @Test
    void two_messages_without_tool_use_at_the_same_place_share_the_ids() {
        ToolUseIds ids = ToolUseIds.of(List.of(call("a")));
        ToolUseIds one = ids.plus(Message.user("results, built anew at each fold"));
        ToolUseIds two = ids.plus(Message.user("results, built anew at each fold"));

        assertThat(two.sharesWith(one)).isTrue();
        assertThat(two.contains("a")).isTrue();
        assertThat(ids.plus(call("z")).sharesWith(one)).isFalse(); // one with an id after one without: a copy
    }

    @Test
    void another_message_at_the_same_place_gets_its_own_copy() {
        ToolUseIds ids = ToolUseIds.of(List.of(call("a"), call("b")));
        ToolUseIds one = ids.plus(call("x"));
        ToolUseIds other = ids.plus(call("x")); // equal, but not the same object: not proven the same

        assertThat(other.sharesWith(one)).isFalse();
        assertThat(other.contains("x")).isTrue();
        ToolUseIds third = ids.plus(call("y"));
        assertThat(third.contains("x")).isFalse();
        assertThat(third.contains("y")).isTrue();
        assertThat(one.contains("y")).isFalse();
    }

    @Test
    void a_version_extended_past_the_shared_one_still_hides_its_later_ids() {
        ToolUseIds ids = ToolUseIds.of(List.of(call("a")));
        Message next = call("n");
        ToolUseIds first = ids.plus(next);
        ToolUseIds later = first.plus(call("later"));
        ToolUseIds again = ids.plus(next); // the claim moved on: a copy, without "later"

        assertThat(again.contains("n")).isTrue();
        assertThat(again.contains("later")).isFalse();
        assertThat(later.contains("later")).isTrue();
    }
}
