package dev.threadline.chatmemory;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ToolArgumentsTest {
    @Test
    void a_json_object_is_kept_as_an_object_and_written_back_compactly() {
        var input = ToolArguments.toInput("{ \"a\" : 1 }");
        assertThat(input.get("a").asInt()).isEqualTo(1);
        assertThat(ToolArguments.toText(input)).isEqualTo("{\"a\":1}");
    }

    @Test
    void anything_else_is_kept_verbatim_under_raw() {
        for (String text : new String[] {"not json", "[1,2]", "", "{\"_raw\":\"x\"}"}) {
            var input = ToolArguments.toInput(text);
            assertThat(input.get(ToolArguments.RAW).asText()).isEqualTo(text);
            assertThat(ToolArguments.toText(input)).isEqualTo(text);
        }
        assertThat(ToolArguments.toText(ToolArguments.toInput(null))).isNull();
    }
}
