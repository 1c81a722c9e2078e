package dev.threadline.core.llm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class DemoIntentTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "what is (2+3)*4?|(2+3)*4",
        "What's 12 / 4|12 / 4",
        "compute sqrt(16) + 2 please|sqrt(16) + 2",
        "2+2=|2+2",
        "(what about 7*6)|7*6",
        "how much is 2^10, roughly?|2^10",
        "max(1, 5, 3)|max(1, 5, 3)",
        "0.1 + 0.2|0.1 + 0.2",
    })
    void findsTheExpression(String text, String expression) {
        assertThat(DemoIntent.of(text)).isEqualTo(new DemoIntent.Calculate(expression));
    }

    @Test
    void plainNumbersAndWordsAreNotArithmetic() {
        assertThat(DemoIntent.of("I have 2 cats")).isEqualTo(new DemoIntent.Chat());
        assertThat(DemoIntent.of("hello there, how are you?")).isEqualTo(new DemoIntent.Chat());
        assertThat(DemoIntent.of("")).isEqualTo(new DemoIntent.Chat());
        assertThat(DemoIntent.of(null)).isEqualTo(new DemoIntent.Chat());
    }

    @Test
    void notes() {
        assertThat(DemoIntent.of("note buy milk")).isEqualTo(new DemoIntent.AddNote("buy milk"));
        assertThat(DemoIntent.of("Note: ship 2 releases")).isEqualTo(new DemoIntent.AddNote("ship 2 releases"));
        assertThat(DemoIntent.of("remember that Bob is out on Friday")).isEqualTo(new DemoIntent.AddNote("Bob is out on Friday"));
        assertThat(DemoIntent.of("notes")).isEqualTo(new DemoIntent.ListNotes());
        assertThat(DemoIntent.of("Show notes?")).isEqualTo(new DemoIntent.ListNotes());
        assertThat(DemoIntent.of("list my notes")).isEqualTo(new DemoIntent.ListNotes());
        assertThat(DemoIntent.of("clear notes")).isEqualTo(new DemoIntent.ClearNotes());
    }

    @Test
    void files() {
        assertThat(DemoIntent.of("read README.md")).isEqualTo(new DemoIntent.ReadFile("README.md"));
        assertThat(DemoIntent.of("read \"docs/a b.txt\"")).isEqualTo(new DemoIntent.ReadFile("docs/a b.txt"));
        assertThat(DemoIntent.of("ls")).isEqualTo(new DemoIntent.ListFiles("."));
        assertThat(DemoIntent.of("list files")).isEqualTo(new DemoIntent.ListFiles("."));
        assertThat(DemoIntent.of("ls docs")).isEqualTo(new DemoIntent.ListFiles("docs"));
        assertThat(DemoIntent.of("list files in src/main")).isEqualTo(new DemoIntent.ListFiles("src/main"));
    }
}
