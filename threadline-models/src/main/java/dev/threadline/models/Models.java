package dev.threadline.models;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ModelException;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.models.anthropic.AnthropicChatModel;
import dev.threadline.models.http.HttpSettings;
import dev.threadline.models.openai.OpenAiChatModel;
import java.net.URI;
import dev.threadline.core.llm.ModelResolver;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Objects;

/**
 * Makes a {@link ChatModel} from a spec such as {@code anthropic:claude-sonnet-4-5},
 * {@code openai:gpt-4o-mini}, {@code openai:llama3.1} (with a base URL) or {@code scripted}, taking
 * keys and base URLs from the environment:
 *
 * <table>
 *   <caption>environment</caption>
 *   <tr><td>{@code ANTHROPIC_API_KEY}</td><td>key for {@code anthropic:} (required at the default base URL)</td></tr>
 *   <tr><td>{@code ANTHROPIC_BASE_URL}</td><td>API root when no base URL is given</td></tr>
 *   <tr><td>{@code OPENAI_API_KEY}</td><td>key for {@code openai:} (required at the default base URL only)</td></tr>
 *   <tr><td>{@code OPENAI_BASE_URL}</td><td>API root when no base URL is given, e.g. {@code http://127.0.0.1:11434/v1}</td></tr>
 * </table>
 *
 * Without a spec, {@link #defaultSpec} picks a current Claude model when an Anthropic key is set,
 * else an OpenAI model when an OpenAI key is set, else the offline scripted demo.
 * Stateless: safe from any thread; the models it makes are thread-safe.
 */
public final class Models {
    /** The Anthropic model used when an Anthropic key is set and no model is named. */
    public static final String DEFAULT_ANTHROPIC_MODEL = "claude-sonnet-4-5";
    /** The OpenAI model used when only an OpenAI key is set and no model is named. */
    public static final String DEFAULT_OPENAI_MODEL = "gpt-4o-mini";
    /** The spec of Threadline's offline scripted demo model. */
    public static final String SCRIPTED = "scripted";

    private Models() {}

    /** The model to use when none is named: by which API key the environment holds. */
    public static String defaultSpec(Map<String, String> env) {
        if (present(env.get("ANTHROPIC_API_KEY"))) {
            return "anthropic:" + DEFAULT_ANTHROPIC_MODEL;
        }
        if (present(env.get("OPENAI_API_KEY"))) {
            return "openai:" + DEFAULT_OPENAI_MODEL;
        }
        return SCRIPTED;
    }

    /**
     * The spec a model made from {@code spec} names itself by ({@link ChatModel#name()}): stripped, the
     * provider's default model filled in ({@code openai} is {@code openai:gpt-4o-mini}). Checks nothing
     * else: {@link #fromSpec} refuses what it cannot make.
     */
    public static String spec(String spec) {
        String s = spec == null ? "" : spec.strip();
        int colon = s.indexOf(':');
        String provider = colon < 0 ? s : s.substring(0, colon);
        String model = colon < 0 ? "" : s.substring(colon + 1).strip();
        return switch (provider) {
            case "anthropic" -> "anthropic:" + (model.isEmpty() ? DEFAULT_ANTHROPIC_MODEL : model);
            case "openai" -> "openai:" + (model.isEmpty() ? DEFAULT_OPENAI_MODEL : model);
            default -> s;
        };
    }

    /** {@link #fromSpec(String, String, Map, int, HttpSettings)} with the default context window and HTTP settings. */
    public static ChatModel fromSpec(String spec, String baseUrl, Map<String, String> env) {
        return fromSpec(spec, baseUrl, env, 0, HttpSettings.defaults());
    }

    /**
     * The model named by {@code spec}.
     *
     * @param baseUrl             API root, or null for the environment's or the provider's default
     * @param contextWindowTokens overrides the known window of the model family when positive
     * @throws InvalidInputException when the spec or base URL is malformed
     * @throws ModelException        of kind AUTH when the API key the model needs is not set
     */
    public static ChatModel fromSpec(String spec, String baseUrl, Map<String, String> env, int contextWindowTokens,
                                     HttpSettings http) {
        Objects.requireNonNull(env, "env");
        String s = spec == null ? "" : spec.strip();
        int colon = s.indexOf(':');
        String provider = colon < 0 ? s : s.substring(0, colon);
        String model = colon < 0 ? "" : s.substring(colon + 1).strip();
        switch (provider) {
            case SCRIPTED -> {
                if (!model.isEmpty() || present(baseUrl)) {
                    throw new InvalidInputException("model", "'scripted' is the offline demo model; it takes no model name or base URL");
                }
                return ScriptedModel.demo();
            }
            case "anthropic" -> {
                String m = model.isEmpty() ? DEFAULT_ANTHROPIC_MODEL : model;
                String url = url(baseUrl, env.get("ANTHROPIC_BASE_URL"), AnthropicChatModel.DEFAULT_BASE_URL);
                String key = key(env, "ANTHROPIC_API_KEY", "anthropic:" + m, url, AnthropicChatModel.DEFAULT_BASE_URL);
                return AnthropicChatModel.builder().model(m).apiKey(key).baseUrl(url).http(http)
                        .contextWindowTokens(contextWindowTokens).build();
            }
            case "openai" -> {
                String m = model.isEmpty() ? DEFAULT_OPENAI_MODEL : model;
                String url = url(baseUrl, env.get("OPENAI_BASE_URL"), OpenAiChatModel.DEFAULT_BASE_URL);
                String key = key(env, "OPENAI_API_KEY", "openai:" + m, url, OpenAiChatModel.DEFAULT_BASE_URL);
                return OpenAiChatModel.builder().model(m).apiKey(key).baseUrl(url).http(http)
                        .contextWindowTokens(contextWindowTokens).build();
            }
            default -> throw new InvalidInputException("model", "'" + s + "' is not a model this build offers; use"
                    + " anthropic:MODEL (e.g. anthropic:" + DEFAULT_ANTHROPIC_MODEL + "), openai:MODEL (e.g. openai:"
                    + DEFAULT_OPENAI_MODEL + ", or openai:llama3.1 with --base-url http://127.0.0.1:11434/v1), or scripted");
        }
    }

    /**
     * A resolver that makes each session's model from its config's spec with {@link #fromSpec}, once per
     * spec and base URL (models are stateless and shared). A session's own base URL
     * ({@code SessionConfig.baseUrl}, passed to {@link ModelResolver#find(String, String)}) wins; without
     * one, {@code baseUrl} (null: the environment's or the provider's) applies to every spec of a provider
     * that takes one. {@code contextWindowTokens} applies to every spec. Thread-safe.
     *
     * @throws InvalidInputException (from resolving) when a spec is malformed
     * @throws ModelException        (from resolving) of kind AUTH when a spec needs a key that is not set
     */
    public static ModelResolver resolver(String baseUrl, Map<String, String> env, int contextWindowTokens, HttpSettings http) {
        Map<List<String>, ChatModel> made = new ConcurrentHashMap<>();
        return new ModelResolver() {
            @Override
            public Optional<ChatModel> find(String spec) {
                return find(spec, null);
            }

            @Override
            public Optional<ChatModel> find(String spec, String sessionUrl) {
                String s = spec.strip();
                String url = s.equals(SCRIPTED) ? null : present(sessionUrl) ? sessionUrl.strip() : baseUrl;
                return Optional.of(made.computeIfAbsent(Arrays.asList(s, url), k -> fromSpec(s, url, env, contextWindowTokens, http)));
            }
        };
    }

    private static String url(String given, String fromEnv, URI fallback) {
        String url = present(given) ? given.strip() : present(fromEnv) ? fromEnv.strip() : fallback.toString();
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("base URL", "'" + url + "' is not a URL: " + e.getMessage());
        }
        if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
            throw new InvalidInputException("base URL", "'" + url + "' must be an http(s) URL with a host, e.g. http://127.0.0.1:11434/v1");
        }
        return url;
    }

    /** The key from the environment; required only at the provider's own (default) base URL. */
    private static String key(Map<String, String> env, String var, String spec, String url, URI defaultUrl) {
        String key = env.get(var);
        if (present(key)) {
            return key.strip();
        }
        if (URI.create(url).getHost().equalsIgnoreCase(defaultUrl.getHost())) {
            throw new ModelException("no API key for " + spec + ": set " + var + " (export " + var + "=...) or choose"
                    + " another model, e.g. --model scripted for the offline demo", ModelException.Kind.AUTH, false);
        }
        return null;
    }

    private static boolean present(String s) {
        return s != null && !s.isBlank();
    }
}
