/**
 * Threadline's model providers: {@link dev.threadline.models.Models} makes a model from a spec such as
 * {@code anthropic:claude-sonnet-4-5}; the Anthropic Messages and OpenAI-compatible Chat Completions
 * providers are built with {@code AnthropicChatModel.builder()} and {@code OpenAiChatModel.builder()},
 * configured with {@link dev.threadline.models.http.HttpSettings}; {@code LangChain4jChatModel} wraps any
 * LangChain4j chat model (add {@code langchain4j-core} to use it: it is optional). The shared HTTP
 * kit the providers are built on ({@code dev.threadline.models.internal}) is not exported.
 */
module dev.threadline.models {
    requires transitive dev.threadline.core;
    requires transitive java.net.http;
    // not transitive: javac then demands langchain4j-core of every module that requires this one, even one
    // that never touches LangChain4jChatModel; a module that does requires langchain4j.core itself
    requires static langchain4j.core;

    exports dev.threadline.models;
    exports dev.threadline.models.anthropic;
    exports dev.threadline.models.http;
    exports dev.threadline.models.langchain4j;
    exports dev.threadline.models.openai;
}
