package dev.threadline.core.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.json.Json;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TokenCounterTest {
    private final TokenCounter o200k = TokenCounter.approximate();

    @Test
    void countsWithTheRealVocabularies() {
        // reference counts from OpenAI's tiktoken for the same strings
        assertThat(o200k.count("hello world")).isEqualTo(2);
        assertThat(JtokkitTokenCounter.of("cl100k_base").count("hello world")).isEqualTo(2);
        assertThat(JtokkitTokenCounter.of("cl100k_base").count("tiktoken is great!")).isEqualTo(6);
        assertThat(o200k.count("")).isZero();
        assertThat(o200k.name()).contains("o200k_base").contains("approximate");
    }

    @Test
    void specialTokenTextInUserInputIsCountedNotRefused() {
        assertThat(o200k.count("<|endoftext|>")).isGreaterThan(1);
    }

    @Test
    void aMessageCountsItsBlocksAndFraming() {
        Message text = Message.user("hello world");
        assertThat(o200k.count(text)).isEqualTo(2 + JtokkitTokenCounter.PER_MESSAGE);
        Message call = Message.assistant(List.of(new ContentBlock.ToolUse("t1", "calculate",
                Json.parse("{\"expression\":\"1+1\"}", "in"))), StopReason.TOOL_USE, Usage.ZERO);
        assertThat(o200k.count(call)).isGreaterThan(JtokkitTokenCounter.PER_MESSAGE + JtokkitTokenCounter.PER_TOOL_BLOCK);
        Message image = new Message(dev.threadline.core.model.Role.USER,
                List.of(new ContentBlock.ImageRef("file:///a.png", "image/png")), null, null);
        assertThat(o200k.count(image)).isEqualTo(JtokkitTokenCounter.IMAGE_TOKENS + JtokkitTokenCounter.PER_MESSAGE);
    }

    @Test
    void aRequestCountsSystemPromptToolsAndMessages() {
        ToolSpec tool = new ToolSpec("calculate", "evaluates arithmetic", Json.parse("{\"type\":\"object\"}", "s"));
        long bare = o200k.count("", List.of(), List.of(Message.user("hi")));
        long full = o200k.count("You are terse.", List.of(tool), List.of(Message.user("hi")));
        assertThat(bare).isEqualTo(JtokkitTokenCounter.PER_REQUEST + o200k.count(Message.user("hi")));
        assertThat(full).isGreaterThan(bare + o200k.count("You are terse.") + o200k.count("evaluates arithmetic"));
        ChatRequest r = new ChatRequest("m", "You are terse.", List.of(Message.user("hi")), List.of(tool), 10);
        assertThat(o200k.measure(r)).isEqualTo(new TokenCounter.Measure(full, false, o200k.name()));
    }

    @Test
    void theProvidersOwnCountWinsWhereItIsOffered() {
        AtomicInteger asked = new AtomicInteger();
        ChatModel counting = new ChatModel() {
            public String name() {
                return "counting";
            }

            public ChatResponse complete(ChatRequest request) {
                throw new UnsupportedOperationException();
            }

            @Override
            public OptionalLong countTokens(ChatRequest request) {
                asked.incrementAndGet();
                return OptionalLong.of(1234);
            }
        };
        ChatRequest r = new ChatRequest("m", "", List.of(Message.user("hi")), List.of(), 10);
        TokenCounter.Measure m = TokenCounter.of(counting, o200k).measure(r);
        assertThat(m.tokens()).isEqualTo(1234);
        assertThat(m.exact()).isTrue();
        assertThat(m.counter()).contains("counting");
        assertThat(TokenCounter.of(counting, o200k).count(Message.user("hi"))).isEqualTo(o200k.count(Message.user("hi")));
        assertThat(asked).hasValue(1);

        TokenCounter.Measure fallback = TokenCounter.of(ScriptedModel.demo(), o200k).measure(r);
        assertThat(fallback.exact()).isFalse();
        assertThat(fallback.tokens()).isEqualTo(o200k.count(r));
    }

    @Test
    void anUnknownEncodingIsAClearError() {
        assertThatThrownBy(() -> JtokkitTokenCounter.of("gpt5_base")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("'gpt5_base' is not a jtokkit encoding");
    }

    @Test
    void usageTotalsKeepCacheTokensApart() {
        Usage u = new Usage(100, 20, 1000, 50).plus(new Usage(10, 2, 0, 5));
        assertThat(u).isEqualTo(new Usage(110, 22, 1000, 55));
        assertThat(u.promptTokens()).isEqualTo(1165);
        assertThat(u.totalTokens()).isEqualTo(1187);
        assertThat(Json.write(u)).isEqualTo("{\"inputTokens\":110,\"outputTokens\":22,\"cacheReadTokens\":1000,\"cacheWriteTokens\":55}");
    }
}
