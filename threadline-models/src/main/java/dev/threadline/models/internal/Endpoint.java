package dev.threadline.models.internal;

import java.net.URI;
import java.util.Objects;

/**
 * Which provider and model a call goes to; error messages name them.
 *
 * @param provider    short id: {@code anthropic}, {@code openai}
 * @param displayName how people call it: {@code Anthropic}, {@code the OpenAI-compatible server}
 * @param keyEnv      the environment variable that holds its API key
 * @param model       the model name sent on the wire
 * @param baseUrl     the API root, e.g. {@code https://api.anthropic.com} or {@code http://127.0.0.1:11434/v1}
 */
public record Endpoint(String provider, String displayName, String keyEnv, String model, URI baseUrl) {
    public Endpoint {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(displayName, "displayName");
        Objects.requireNonNull(keyEnv, "keyEnv");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(baseUrl, "baseUrl");
        if (model.isBlank()) {
            throw new IllegalArgumentException("the model name must not be blank");
        }
    }

    /** {@code baseUrl} with {@code path} appended (one slash between them). */
    public URI resolve(String path) {
        String root = baseUrl.toString();
        return URI.create((root.endsWith("/") ? root.substring(0, root.length() - 1) : root) + path);
    }

    /** {@code anthropic:claude-...}: the name of the model for logs, banners and session configs. */
    public String spec() {
        return provider + ":" + model;
    }
}
