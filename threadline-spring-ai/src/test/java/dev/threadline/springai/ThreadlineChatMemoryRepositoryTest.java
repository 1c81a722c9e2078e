package dev.threadline.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.Threadline;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.UserMessage;

/** The repository contract as Spring AI's tests state it for its in-memory and JDBC repositories. */
class ThreadlineChatMemoryRepositoryTest {
    private final Threadline tl = Threadline.builder().store(new InMemoryStateStore()).build();
    private final Tenant tenant = tl.tenant("acme");
    private final ThreadlineChatMemoryRepository repository = new ThreadlineChatMemoryRepository(tenant);

    @AfterEach
    void close() {
        tl.close();
    }

    @Test
    void finds_the_conversation_ids_it_saved_and_forgets_deleted_ones() {
        String first = UUID.randomUUID().toString();
        String second = "not a session id: " + UUID.randomUUID();
        repository.saveAll(first, List.of(new UserMessage("Hello")));
        repository.saveAll(second, List.of(new AssistantMessage("Hi there")));
        tenant.create("other-session", dev.threadline.core.session.SessionConfig.DEFAULT); // not a conversation

        assertThat(repository.findConversationIds()).containsExactlyInAnyOrder(first, second);

        repository.deleteByConversationId(first);
        assertThat(repository.findConversationIds()).containsExactly(second);
        assertThat(repository.findByConversationId(second)).containsExactly(new AssistantMessage("Hi there"));
    }

    @Test
    void saves_and_finds_every_kind_of_message_in_order() {
        String id = UUID.randomUUID().toString();
        List<Message> messages = List.of(new AssistantMessage("Message from assistant 1"), new AssistantMessage("Message from assistant 2"),
                new UserMessage("Message from user"), new SystemMessage("Message from system"));

        repository.saveAll(id, messages);

        assertThat(repository.findByConversationId(id)).isEqualTo(messages);
        repository.deleteByConversationId(id);
        assertThat(repository.findByConversationId(id)).isEmpty();
        assertThat(tenant.find(id)).isEmpty();
    }

    @Test
    void keeps_the_order_of_a_large_batch() {
        String id = UUID.randomUUID().toString();
        List<Message> messages = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            messages.add(new UserMessage("Message " + i));
        }
        repository.saveAll(id, messages);

        assertThat(repository.findByConversationId(id)).extracting(Message::getText)
                .containsExactlyElementsOf(messages.stream().map(Message::getText).toList());
    }

    @Test
    void finding_a_conversation_that_does_not_exist_gives_nothing() {
        assertThat(repository.findByConversationId(UUID.randomUUID().toString())).isEmpty();
    }

    @Test
    void a_later_save_replaces_the_earlier_messages() {
        String id = UUID.randomUUID().toString();
        repository.saveAll(id, List.of(new UserMessage("Hello"), new AssistantMessage("Hi"), new SystemMessage("be brief")));

        repository.saveAll(id, List.of(new AssistantMessage("Hi there")));

        assertThat(repository.findByConversationId(id)).containsExactly(new AssistantMessage("Hi there"));
        assertThat(tenant.open(id).state().messages()).hasSize(3); // the journal keeps the first version
    }

    @Test
    void refuses_null_or_empty_ids_and_null_messages() {
        for (String bad : new String[] {null, ""}) {
            assertThatThrownBy(() -> repository.saveAll(bad, List.of(new UserMessage("Hello"))))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("conversationId cannot be null or empty");
            assertThatThrownBy(() -> repository.findByConversationId(bad))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("conversationId cannot be null or empty");
            assertThatThrownBy(() -> repository.deleteByConversationId(bad))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("conversationId cannot be null or empty");
        }
        assertThatThrownBy(() -> repository.saveAll("c1", null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("messages cannot be null");
        List<Message> withNull = new ArrayList<>();
        withNull.add(null);
        assertThatThrownBy(() -> repository.saveAll("c1", withNull))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("messages cannot contain null elements");
        assertThat(repository.findConversationIds()).isEmpty();
    }

    @Test
    void any_sequence_of_saves_reads_back_as_spring_ais_own_repository() {
        var both = new Differential(repository, 20);
        var sys = new SystemMessage("be brief");
        var q1 = new UserMessage("q1");
        var a1 = new AssistantMessage("a1");
        var q2 = new UserMessage("q2");
        both.saveAll("c1", List.of(q1));
        both.saveAll("c1", List.of(sys, q1, a1)); // a system message and an answer added
        both.saveAll("c1", List.of(a1, q2)); // a slide: the first gone, one added
        both.saveAll("c1", List.of(q2, q1)); // a reorder: a rewrite
        both.saveAll("c2", List.of(sys));
        assertThat(both.saveAll("c1", List.of())).isEmpty();
        assertThat(both.get("c2")).containsExactly(sys);
    }
}
