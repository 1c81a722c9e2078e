package dev.threadline.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.store.tck.RoundTripFixtures;
import io.lettuce.core.codec.StringCodec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The store's codec writes every plain value with exactly the bytes Lettuce's UTF-8 codec writes (so a plain
 * store's keys are byte for byte what they were), and carries sealed bytes through unchanged, on both of
 * Lettuce's encoding paths.
 */
class ValueCodecTest {
    private static final List<String> PLAIN = List.of("", "{\"a\":1}", "[3,2,1,\"2025-01-15T10:00:00Z\",null,\"run\",1]\n{}",
            RoundTripFixtures.AWKWARD, "ñ starts with the mark's char", "\u00F1", "lone \uDC00 surrogate", "\uDC00", "🧵".repeat(300));

    @Test
    void plainValuesAreWrittenAndReadExactlyAsLettucesUtf8CodecDoes() {
        for (String v : PLAIN) {
            assertThat(bytes(ValueCodec.INSTANCE.encodeValue(v))).as(v).isEqualTo(bytes(StringCodec.UTF8.encodeValue(v)));
            ByteBuf ours = Unpooled.buffer();
            ByteBuf theirs = Unpooled.buffer();
            ValueCodec.INSTANCE.encodeValue(v, ours);
            StringCodec.UTF8.encodeValue(v, theirs);
            assertThat(readable(ours)).as(v).isEqualTo(readable(theirs));
            assertThat(ValueCodec.INSTANCE.decodeValue(StringCodec.UTF8.encodeValue(v)))
                    .isEqualTo(StringCodec.UTF8.decodeValue(StringCodec.UTF8.encodeValue(v)));
            assertThat(ValueCodec.isCarrier(v)).isFalse();
        }
    }

    @Test
    void sealedBytesRoundTripAsTheyAreOnBothPaths() {
        byte[] sealed = new byte[256];
        for (int i = 0; i < sealed.length; i++) {
            sealed[i] = (byte) (0xF1 + i); // the mark first, then every byte value, newlines and invalid UTF-8 included
        }
        String carrier = ValueCodec.INSTANCE.decodeValue(ByteBuffer.wrap(sealed));
        assertThat(ValueCodec.isCarrier(carrier)).isTrue();
        assertThat(bytes(ValueCodec.INSTANCE.encodeValue(carrier))).isEqualTo(sealed);
        ByteBuf out = Unpooled.buffer();
        ValueCodec.INSTANCE.encodeValue(carrier, out);
        assertThat(readable(out)).isEqualTo(sealed);
        assertThat(ValueCodec.INSTANCE.estimateSize(carrier)).isEqualTo(sealed.length);
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    private static byte[] readable(ByteBuf b) {
        byte[] out = new byte[b.readableBytes()];
        b.getBytes(b.readerIndex(), out);
        return out;
    }
}
