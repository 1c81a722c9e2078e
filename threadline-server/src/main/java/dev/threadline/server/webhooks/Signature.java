package dev.threadline.server.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Standard Webhooks signing (<a href="https://www.standardwebhooks.com">standardwebhooks.com</a>): a
 * secret is {@code whsec_} and the base64 of 32 random bytes; a message is signed as
 * {@code v1,<base64 HMAC-SHA256 of "id.timestamp.body">} with the secret's bytes as the key, and sent
 * with the headers {@code webhook-id}, {@code webhook-timestamp} (Unix seconds) and
 * {@code webhook-signature}. Stateless and thread-safe.
 */
public final class Signature {
    /** The prefix of every signing secret. */
    public static final String SECRET_PREFIX = "whsec_";
    private static final SecureRandom RANDOM = new SecureRandom();

    private Signature() {}

    /** A new signing secret: {@code whsec_} and the base64 of 32 random bytes. */
    public static String newSecret() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return SECRET_PREFIX + Base64.getEncoder().encodeToString(b);
    }

    /**
     * The value of {@code webhook-signature} for a message: {@code v1,} and the base64 HMAC-SHA256 of
     * {@code id.timestamp.body} keyed by the secret's bytes.
     *
     * @throws IllegalArgumentException when the secret is not {@code whsec_} and base64
     */
    public static String sign(String secret, String id, long timestamp, String body) {
        if (secret == null || !secret.startsWith(SECRET_PREFIX)) {
            throw new IllegalArgumentException("a signing secret starts with " + SECRET_PREFIX);
        }
        byte[] key = Base64.getDecoder().decode(secret.substring(SECRET_PREFIX.length()));
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            byte[] sig = mac.doFinal((id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8));
            return "v1," + Base64.getEncoder().encodeToString(sig);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JVM", e);
        }
    }

    /**
     * Whether {@code header} (a {@code webhook-signature} value: space-separated {@code v1,<sig>} entries)
     * holds a valid signature of the message: what a receiver checks (compared in constant time).
     *
     * @throws IllegalArgumentException when the secret is not {@code whsec_} and base64
     */
    public static boolean verify(String secret, String id, long timestamp, String body, String header) {
        if (header == null) {
            return false;
        }
        byte[] expected = sign(secret, id, timestamp, body).getBytes(StandardCharsets.UTF_8);
        for (String part : header.trim().split(" ")) {
            if (MessageDigest.isEqual(expected, part.getBytes(StandardCharsets.UTF_8))) {
                return true;
            }
        }
        return false;
    }
}
