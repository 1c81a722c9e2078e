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
 * of one runtime can use different models. A session may also name the API root of its model's
 * server ({@code SessionConfig.baseUrl}): {@link #find(String, String)} receives it; a resolver whose
 * models have fixed endpoints (the default) knows no spec at another base URL, so a saved base URL is never
 * silently ignored. Implementations are thread-safe and return shared, stateless models (resolve may
 * cache them).
 */
@FunctionalInterface
public interface ModelResolver {

    /** The model for {@code spec}, or empty when this resolver does not know it. */
    Optional<ChatModel> find(String spec);

    /**
     * The model for {@code spec} served at API root {@code baseUrl}, or empty when this resolver does not
     * know it. A null {@code baseUrl} means the resolver's default: {@link #find(String)}. This default
     * implementation knows no model at a given base URL; resolvers that make models for any endpoint
     * (e.g. {@code Models.resolver}) override it.
     */
    default Optional<ChatModel> find(String spec, String baseUrl) {
        return baseUrl == null ? find(spec) : Optional.empty();
    }

    /**
     * The model for {@code spec}.
     *
     * @throws InvalidInputException naming the spec when no model is known for it
     */
    default ChatModel resolve(String spec) {
        return resolve(spec, null);
    }

    /**
     * The model for {@code spec} at API root {@code baseUrl} (null: the resolver's default).
     *
     * @throws InvalidInputException naming the spec (and base URL) when no model is known for it
     */
    default ChatModel resolve(String spec, String baseUrl) {
        return find(Require.nonBlank(spec, "config.model"), baseUrl).orElseThrow(() ->
                new InvalidInputException("config.model", "no model is configured for '" + spec + "'"
                        + (baseUrl == null ? "" : " at " + baseUrl)));
    }

    /** This resolver, then {@code next} for specs (and base URLs) it does not know. */
    default ModelResolver orElse(ModelResolver next) {
        ModelResolver first = this;
        return new ModelResolver() {
            @Override
            public Optional<ChatModel> find(String spec) {
                return first.find(spec).or(() -> next.find(spec));
            }

            @Override
            public Optional<ChatModel> find(String spec, String baseUrl) {
                return first.find(spec, baseUrl).or(() -> next.find(spec, baseUrl));
            }
        };
    }

    /** A resolver that knows exactly these models, each by its {@link ChatModel#name()}. */
    static ModelResolver of(List<? extends ChatModel> models) {
        Map<String, ChatModel> byName = new LinkedHashMap<>();
        models.forEach(m -> byName.put(m.name(), m));
        return spec -> Optional.ofNullable(byName.get(spec));
    }

    /** A resolver that gives {@code model} for every spec and base URL (a runtime with one model). */
    static ModelResolver always(ChatModel model) {
        Require.nonNull(model, "model");
        return new ModelResolver() {
            @Override
            public Optional<ChatModel> find(String spec) {
                return Optional.of(model);
            }

            @Override
            public Optional<ChatModel> find(String spec, String baseUrl) {
                return Optional.of(model);
            }
        };
    }
}
