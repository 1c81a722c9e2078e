package dev.threadline.core.llm;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.error.Require;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Chooses the model a session runs on from its config's model spec ({@code SessionConfig.model}: e.g.
 * {@code scripted}, {@code anthropic:claude-sonnet-4-5}, {@code openai:gpt-4o-mini}), so two sessions
 * of one runtime can use different models. Implementations are thread-safe and return shared,
 * stateless models (resolve may cache them).
 */
@FunctionalInterface
public interface ModelResolver {

    /** The model for {@code spec}, or empty when this resolver does not know it. */
    Optional<ChatModel> find(String spec);

    /**
     * The model for {@code spec}.
     *
     * @throws InvalidInputException naming the spec when no model is known for it
     */
    default ChatModel resolve(String spec) {
        return find(Require.nonBlank(spec, "config.model")).orElseThrow(() ->
                new InvalidInputException("config.model", "no model is configured for '" + spec + "'"));
    }

    /** This resolver, then {@code next} for specs it does not know. */
    default ModelResolver orElse(ModelResolver next) {
        return spec -> find(spec).or(() -> next.find(spec));
    }

    /** A resolver that knows exactly these models, each by its {@link ChatModel#name()}. */
    static ModelResolver of(List<? extends ChatModel> models) {
        Map<String, ChatModel> byName = new LinkedHashMap<>();
        models.forEach(m -> byName.put(m.name(), m));
        return spec -> Optional.ofNullable(byName.get(spec));
    }

    /** A resolver that gives {@code model} for every spec (a runtime with one model). */
    static ModelResolver always(ChatModel model) {
        Require.nonNull(model, "model");
        return spec -> Optional.of(model);
    }
}
