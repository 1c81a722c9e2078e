package dev.threadline.chatmemory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

class CallIdsTest {
    @Test
    void a_free_id_is_kept_a_taken_one_is_suffixed_and_both_read_back_as_given() {
        assertThat(CallIds.encode("call_1", x -> false)).isEqualTo("call_1");
        String second = CallIds.encode("call_1", Set.of("call_1")::contains);
        assertThat(second).isEqualTo("call_1~1");
        assertThat(CallIds.decode(second)).isEqualTo("call_1");
        assertThat(CallIds.decode("call_1")).isEqualTo("call_1");
    }

    @Test
    void a_missing_id_is_a_bare_suffix_that_reads_back_as_null() {
        assertThat(CallIds.encode(null, x -> false)).isEqualTo("~1");
        assertThat(CallIds.encode(" ", Set.of("~1")::contains)).isEqualTo("~2");
        assertThat(CallIds.decode("~2")).isNull();
        assertThat(CallIds.neutral(null)).isEqualTo("~1");
    }

    @Test
    void an_id_that_looks_suffixed_always_gets_a_suffix_so_decoding_is_exact() {
        String stored = CallIds.encode("x~3", x -> false);
        assertThat(stored).isEqualTo("x~3~1");
        assertThat(CallIds.decode(stored)).isEqualTo("x~3");
    }
}
