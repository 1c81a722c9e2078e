package dev.threadline.models.http;

import java.net.URI;
import java.util.Objects;

/**
 * What the builder of every HTTP provider sets: the model, the API key, the API root, the
 * {@link HttpSettings} and the context window; each provider's builder adds its own options and
 * {@code build()}. Not thread-safe: configure it on one thread; the models it builds are thread-safe.
 *
 * @param <B> the provider's builder, which every setter returns
 */
public abstract class HttpModelBuilder<B extends HttpModelBuilder<B>> {
    private String apiKey;
    private String model;
    private URI baseUrl;
    private HttpSettings http = HttpSettings.defaults();
    private int contextWindowTokens;

    /** A builder whose API root is {@code defaultBaseUrl} until {@link #baseUrl(String)} says otherwise. */
    protected HttpModelBuilder(URI defaultBaseUrl) {
        this.baseUrl = Objects.requireNonNull(defaultBaseUrl, "defaultBaseUrl");
    }

    /**
     * The API key, sent in the provider's header ({@code x-api-key} to Anthropic,
     * {@code Authorization: Bearer} to OpenAI-compatible servers); null or blank sends none (a local
     * server or stand-in that needs none).
     */
    public final B apiKey(String apiKey) {
        this.apiKey = apiKey;
        return self();
    }

    /** The model to call (required), e.g. {@code claude-sonnet-4-5}, {@code gpt-4o-mini} or a local server's model name. */
    public final B model(String model) {
        this.model = model;
        return self();
    }

    /**
     * The API root, e.g. {@code https://api.anthropic.com} or {@code http://127.0.0.1:11434/v1} (an
     * OpenAI-compatible root includes its version path); the provider's path is appended.
     *
     * @throws IllegalArgumentException when {@code baseUrl} is not a URI
     */
    public final B baseUrl(String baseUrl) {
        this.baseUrl = URI.create(Objects.requireNonNull(baseUrl, "baseUrl"));
        return self();
    }

    /** HTTP client, retries, timeout, sleeper, clock (see {@link HttpSettings}). */
    public final B http(HttpSettings http) {
        this.http = Objects.requireNonNull(http, "http");
        return self();
    }

    /**
     * Overrides, when positive, the context window the provider knows for the model family: 200,000
     * tokens for every Claude model; a model an OpenAI-compatible server runs that the family list does
     * not know gets 8,192, so name a local server's window here.
     */
    public final B contextWindowTokens(int tokens) {
        this.contextWindowTokens = tokens;
        return self();
    }

    /** The API key set, or null. */
    protected final String apiKey() {
        return apiKey;
    }

    /** The model set, or null. */
    protected final String model() {
        return model;
    }

    /** The API root. */
    protected final URI baseUrl() {
        return baseUrl;
    }

    /** The HTTP settings. */
    protected final HttpSettings http() {
        return http;
    }

    /** The context window set, or 0 (or less) for the one the provider knows. */
    protected final int contextWindowTokens() {
        return contextWindowTokens;
    }

    @SuppressWarnings("unchecked") // B is this builder's own class, by the bound every provider's builder declares
    private B self() {
        return (B) this;
    }
}
