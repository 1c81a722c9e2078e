package dev.threadline.store.redis;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The store's codec: keys and plain values as UTF-8 text exactly as Lettuce's {@link io.lettuce.core.codec.StringCodec#UTF8}
 * writes and reads them, and sealed values (encryption at rest, ADR 0049) as the raw bytes they are. A sealed
 * value travels through the store, its scripts and this codec as a <em>carrier</em>: a string of {@link #CARRIER}
 * followed by one char per byte (ISO-8859-1), the first byte being {@link dev.threadline.core.crypto.PayloadSealer#MARK};
 * a value read whose first byte is that mark comes back as a carrier, every other one as UTF-8 text. A JSON
 * payload never starts with that byte, and no text the store writes starts with a lone low surrogate followed by
 * {@code U+00F1}, so plain values are written byte for byte as before. Immutable and thread-safe.
 */
final class ValueCodec extends io.lettuce.core.codec.StringCodec {
    /** The first char of a carrier: a lone low surrogate, which no text the store writes starts with. */
    static final char CARRIER = '\uDC00';
    /** The one instance. */
    static final ValueCodec INSTANCE = new ValueCodec();

    private static final byte MARK = dev.threadline.core.crypto.PayloadSealer.MARK;

    private ValueCodec() {
        super(StandardCharsets.UTF_8);
    }

    /** Whether {@code value} is a carrier of raw bytes. */
    static boolean isCarrier(String value) {
        return value != null && value.length() > 1 && value.charAt(0) == CARRIER && value.charAt(1) == (char) (MARK & 0xFF);
    }

    /** The carrier of {@code bytes} (which start with the mark). */
    static String carry(byte[] bytes) {
        return CARRIER + new String(bytes, StandardCharsets.ISO_8859_1);
    }

    /** The bytes {@code carrier} holds from char {@code from} (1 = all of them) to {@code to}. */
    static byte[] bytes(String carrier, int from, int to) {
        return carrier.substring(from, to).getBytes(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void encodeValue(String value, ByteBuf target) {
        if (isCarrier(value)) {
            target.writeBytes(bytes(value, 1, value.length()));
        } else {
            super.encodeValue(value, target);
        }
    }

    @Override
    public ByteBuffer encodeValue(String value) {
        return isCarrier(value) ? ByteBuffer.wrap(bytes(value, 1, value.length())) : super.encodeValue(value);
    }

    @Override
    public int estimateSize(Object keyOrValue) {
        return keyOrValue instanceof String s && isCarrier(s) ? s.length() - 1 : super.estimateSize(keyOrValue);
    }

    @Override
    public String decodeValue(ByteBuffer bytes) {
        if (bytes.remaining() > 0 && bytes.get(bytes.position()) == MARK) {
            byte[] raw = new byte[bytes.remaining()];
            bytes.get(raw);
            return carry(raw);
        }
        return super.decodeValue(bytes);
    }
}
