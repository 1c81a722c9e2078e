package dev.threadline.models.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;
import dev.threadline.core.json.Json;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.llm.ModelException;
import dev.threadline.core.llm.ToolSpec;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.model.StopReason;
import dev.threadline.core.model.Usage;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The adapter with a small hand-written LangChain4j chat model that records what it is asked and answers from a script. */
class LangChain4jChatModelTest {

    /** A LangChain4j ChatModel: records each request, answers with the next scripted response (or throws). */
    static final class FakeModel implements dev.langchain4j.model.chat.ChatModel {
        final List<dev.langchain4j.model.chat.request.ChatRequest> requests = new ArrayList<>();
        final Deque<Supplier<dev.langchain4j.model.chat.response.ChatResponse>> answers = new ArrayDeque<>();

        @Override
        public dev.langchain4j.model.chat.response.ChatResponse doChat(dev.langchain4j.model.chat.request.ChatRequest request) {
            requests.add(request);
            return answers.removeFirst().get();
        }
    }

    static final List<ToolSpec> TOOLS = List.of(new ToolSpec("meeting_minutes", "Keeps notes.", Json.parse("""
            {"type":"object","properties":{"action":{"type":"string","enum":["add","list"]},"note":{"type":"string","maxLength":500}},
             "required":["action"],"additionalProperties":false}""", "schema")));

    final FakeModel fake = new FakeModel();
    final LangChain4jChatModel model = new LangChain4jChatModel("fake", fake, 32_000);

    @Test
    void messagesToolsAndResultsAreMappedBothWays() {
        fake.answers.add(() -> dev.langchain4j.model.chat.response.ChatResponse.builder()
                .aiMessage(AiMessage.from("Noting it.", List.of(ToolExecutionRequest.builder().id("call_1").name("meeting_minutes")
                        .arguments("{\"action\":\"add\",\"note\":\"buy milk\"}").build())))
                .finishReason(FinishReason.TOOL_EXECUTION).tokenUsage(new TokenUsage(30, 7)).build());
        fake.answers.add(() -> dev.langchain4j.model.chat.response.ChatResponse.builder().aiMessage(AiMessage.from("Done."))
                .finishReason(FinishReason.STOP).build());

        List<Message> transcript = new ArrayList<>(List.of(Message.user("note buy milk")));
        ChatResponse first = model.complete(new ChatRequest("x", "Be brief.", transcript, TOOLS, 300));

        assertThat(first.content()).containsExactly(ContentBlock.text("Noting it."), new ContentBlock.ToolUse("call_1",
                "meeting_minutes", Json.parse("{\"action\":\"add\",\"note\":\"buy milk\"}", "x")));
        assertThat(first.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(first.usage()).isEqualTo(Usage.of(30, 7));
        var req1 = fake.requests.getFirst();
        assertThat(req1.maxOutputTokens()).isEqualTo(300);
        assertThat(req1.messages()).containsExactly(SystemMessage.from("Be brief."), UserMessage.from("note buy milk"));
        ToolSpecification spec = req1.toolSpecifications().getFirst();
        assertThat(spec.name()).isEqualTo("meeting_minutes");
        assertThat(spec.description()).isEqualTo("Keeps notes.");
        JsonObjectSchema params = spec.parameters();
        assertThat(params.required()).containsExactly("action");
        assertThat(params.additionalProperties()).isFalse();
        assertThat(params.properties().get("action")).isEqualTo(JsonEnumSchema.builder().enumValues("add", "list").build());
        assertThat(params.properties().get("note")).isInstanceOf(JsonStringSchema.class);

        transcript.add(first.toMessage());
        transcript.add(Message.toolResults(List.of(new ContentBlock.ToolResult("call_1", "Noted (1 note): buy milk", false))));
        assertThat(model.complete(new ChatRequest("x", "Be brief.", transcript, TOOLS, 300)).text()).isEqualTo("Done.");

        List<ChatMessage> sent = fake.requests.get(1).messages();
        assertThat(sent).hasSize(4);
        AiMessage ai = (AiMessage) sent.get(2);
        assertThat(ai.text()).isEqualTo("Noting it.");
        assertThat(ai.toolExecutionRequests()).singleElement().satisfies(t -> {
            assertThat(t.id()).isEqualTo("call_1");
            assertThat(Json.parse(t.arguments(), "args")).isEqualTo(Json.parse("{\"action\":\"add\",\"note\":\"buy milk\"}", "x"));
        });
        ToolExecutionResultMessage result = (ToolExecutionResultMessage) sent.get(3);
        assertThat(result.id()).isEqualTo("call_1");
        assertThat(result.toolName()).isEqualTo("meeting_minutes");
        assertThat(result.text()).isEqualTo("Noted (1 note): buy milk");
        assertThat(result.isError()).isFalse();
    }

    @Test
    void lengthDropsTheCutOffCallAndBadArgumentsAreKeptRaw() {
        fake.answers.add(() -> dev.langchain4j.model.chat.response.ChatResponse.builder().aiMessage(AiMessage.from("Hm.",
                        List.of(ToolExecutionRequest.builder().id("c1").name("meeting_minutes").arguments("{\"action\":").build())))
                .finishReason(FinishReason.LENGTH).build());
        fake.answers.add(() -> dev.langchain4j.model.chat.response.ChatResponse.builder().aiMessage(AiMessage.from(
                List.of(ToolExecutionRequest.builder().id("c2").name("meeting_minutes").arguments("not json").build()))).build());
        ChatRequest req = new ChatRequest("x", "", List.of(Message.user("hi")), TOOLS, 10);

        ChatResponse cut = model.complete(req);
        assertThat(cut.content()).containsExactly(ContentBlock.text("Hm."));
        assertThat(cut.stopReason()).isEqualTo(StopReason.MAX_TOKENS);
        ChatResponse raw = model.complete(req);
        assertThat(raw.stopReason()).isEqualTo(StopReason.TOOL_USE);
        assertThat(raw.toMessage().toolUses().getFirst().input()).isEqualTo(Json.parse("{\"_raw\":\"not json\"}", "x"));
    }

    @Test
    void langChain4jExceptionsBecomeModelExceptionsOfTheMatchingKind() {
        fake.answers.add(() -> {
            throw new RateLimitException("slow down");
        });
        fake.answers.add(() -> {
            throw new InvalidRequestException("This model's maximum context length is 8192 tokens");
        });
        fake.answers.add(() -> {
            throw new HttpException(401, "invalid key");
        });
        ChatRequest req = new ChatRequest("x", "", List.of(Message.user("hi")), List.of(), 10);
        assertThatThrownBy(() -> model.complete(req)).isInstanceOfSatisfying(ModelException.class, e -> {
            assertThat(e.kind()).isEqualTo(ModelException.Kind.RATE_LIMITED);
            assertThat(e.retryable()).isTrue();
            assertThat(e.getMessage()).contains("langchain4j:fake failed: slow down");
        });
        assertThatThrownBy(() -> model.complete(req)).isInstanceOfSatisfying(ModelException.class,
                e -> assertThat(e.kind()).isEqualTo(ModelException.Kind.CONTEXT_TOO_LONG));
        assertThatThrownBy(() -> model.complete(req)).isInstanceOfSatisfying(ModelException.class,
                e -> assertThat(e.kind()).isEqualTo(ModelException.Kind.AUTH));
    }

    @Test
    void schemasWithUnionsArraysRefsAndOddKeywordsConvert() {
        var element = JsonSchemas.parameters(Json.parse("""
                {"type":"object","properties":{
                   "tags":{"type":"array","items":{"type":"string"}},
                   "n":{"type":["integer","null"]},
                   "where":{"$ref":"#/$defs/place"},
                   "odd":{"not":{"type":"string"}}},
                 "$defs":{"place":{"type":"object","properties":{"city":{"type":"string","description":"a city"}}}}}""", "schema"));
        assertThat(element.properties()).containsOnlyKeys("tags", "n", "where", "odd");
        assertThat(element.definitions()).containsKey("place");
        assertThat(element.properties().get("odd").getClass().getSimpleName()).isEqualTo("JsonRawSchema");
        assertThat(model.name()).isEqualTo("langchain4j:fake");
        assertThat(model.contextWindowTokens()).isEqualTo(32_000);
    }
}
