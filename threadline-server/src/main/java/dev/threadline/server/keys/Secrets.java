package dev.threadline.server.keys;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;

/** Makes and hashes API key secrets. Thread-safe. */
final class Secrets {
    static final String PREFIX = "tl_";
    private static final String BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    private static final int SECRET_CHARS = 43; // 62^43 > 2^256
    private static final SecureRandom RANDOM = new SecureRandom();

    private Secrets() {}

    /** {@code tl_} and 32 random bytes in base62 (fixed width), so secret scanners can spot a leaked key. */
    static String newSecret() {
        return PREFIX + base62(random(32), SECRET_CHARS);
    }

    /** A key id: {@code key_} and 8 random bytes in base62. */
    static String newId() {
        return "key_" + base62(random(8), 11);
    }

    /**
     * The stored form of a secret: hex SHA-256. A fast hash is enough because secrets carry 256 random
     * bits (no dictionary to try, no brute force within reach); slow password hashes exist for
     * low-entropy human passwords, and would cost every request tens of milliseconds.
     */
    static String hash(String secret) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /** Whether the text has the shape of a secret (checked before hashing anything a client sent). */
    static boolean wellFormed(String secret) {
        if (secret == null || secret.length() != PREFIX.length() + SECRET_CHARS || !secret.startsWith(PREFIX)) {
            return false;
        }
        for (int i = PREFIX.length(); i < secret.length(); i++) {
            if (BASE62.indexOf(secret.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    private static byte[] random(int n) {
        byte[] b = new byte[n];
        RANDOM.nextBytes(b);
        return b;
    }

    private static String base62(byte[] bytes, int width) {
        BigInteger v = new BigInteger(1, bytes);
        BigInteger radix = BigInteger.valueOf(62);
        char[] out = new char[width];
        for (int i = width - 1; i >= 0; i--) {
            BigInteger[] qr = v.divideAndRemainder(radix);
            out[i] = BASE62.charAt(qr[1].intValue());
            v = qr[0];
        }
        return new String(out);
    }
}
