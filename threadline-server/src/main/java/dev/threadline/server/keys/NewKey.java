package dev.threadline.server.keys;

/**
 * A key just created: the only time its secret is known outside the caller's hands (the store keeps
 * its SHA-256). Immutable.
 *
 * @param key    what the store lists
 * @param secret the bearer token ({@code tl_} and 43 base62 characters); show it once
 */
public record NewKey(ApiKey key, String secret) {
    @Override
    public String toString() {
        return "NewKey[" + key + "]"; // never the secret
    }
}
