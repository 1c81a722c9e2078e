package dev.threadline.chatmemory;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SessionIdsTest {
    @Test
    void a_valid_session_id_is_used_as_it_is() {
        assertThat(SessionIds.of("user-42", "p-")).isEqualTo("user-42");
    }

    @Test
    void any_other_key_becomes_the_prefix_and_a_stable_hash() {
        String id = SessionIds.of("user 42 / chat", "p-");
        assertThat(id).startsWith("p-").hasSize(2 + 32).isEqualTo(SessionIds.of("user 42 / chat", "p-"));
        assertThat(SessionIds.of("user 43 / chat", "p-")).isNotEqualTo(id);
    }
}
