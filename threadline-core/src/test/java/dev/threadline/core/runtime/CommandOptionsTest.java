package dev.threadline.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.session.DoubleTexting;
import org.junit.jupiter.api.Test;

class CommandOptionsTest {
    @Test
    void theIdShortcutIsTheBuilderWithOnlyACommandId() {
        assertThat(CommandOptions.id("req-1")).isEqualTo(CommandOptions.builder().commandId("req-1").build());
        assertThat(CommandOptions.id("req-1").commandId()).contains("req-1");
        assertThat(CommandOptions.id("req-1").listener()).isEmpty();
        assertThat(CommandOptions.id("req-1").acknowledgesEffects()).isFalse();
    }

    @Test
    void aBadCommandIdIsRefusedByNameWhicheverWayItIsGiven() {
        assertThatThrownBy(() -> CommandOptions.id(" ")).isInstanceOf(InvalidInputException.class).hasMessageContaining("command id");
        assertThatThrownBy(() -> CommandOptions.id("x".repeat(256))).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("at most 255");
        assertThatThrownBy(() -> CommandOptions.builder().doubleTexting(null)).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("doubleTexting");
    }

    @Test
    void toBuilderKeepsWhatWasSetAndChangesOnlyWhatIsSetAgain() {
        CommandOptions first = CommandOptions.builder().commandId("a").doubleTexting(DoubleTexting.ENQUEUE).build();
        CommandOptions second = first.toBuilder().commandId("b").build();
        assertThat(second.commandId()).contains("b");
        assertThat(second.doubleTexting()).isEqualTo(first.doubleTexting());
        assertThat(first.commandId()).contains("a");
    }
}
