package dev.threadline.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.Threadline;
import dev.threadline.core.event.Event;
import dev.threadline.core.state.State;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.memory.InMemoryChatMemoryRepository;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;

/**
 * The fast path (views built from the last one, the list handed back recognised by identity) against the slow
 * one (everything converted and compared): random sequences of adds, evictions, system messages, tool calls,
 * edits and clears through two repositories (each with its own cache) on one runtime. Every save is decided both
 * ways on the same state and must give the same events; every read must equal a view built afresh and what Spring
 * AI's window memory holds over its own in-memory repository.
 */
class FastPathDifferentialTest {
    private static final AtomicInteger FAST = new AtomicInteger();

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void random_sequences_through_two_repositories_decide_and_read_as_the_slow_path(long seed) {
        FAST.set(0);
        Random rnd = new Random(seed);
        int window = seed % 2 == 0 ? 1_000 : 4 + rnd.nextInt(6);
        try (Threadline tl = Threadline.builder().store(new InMemoryStateStore()).build()) {
            ThreadlineChatMemoryRepository[] repos = {new ThreadlineChatMemoryRepository(tl.tenant("acme")),
                    new ThreadlineChatMemoryRepository(tl.tenant("acme"))};
            ChatMemory[] memories = new ChatMemory[2];
            for (int p = 0; p < 2; p++) {
                memories[p] = MessageWindowChatMemory.builder().chatMemoryRepository(checking(repos[p])).maxMessages(window).build();
            }
            ChatMemory model = MessageWindowChatMemory.builder().chatMemoryRepository(new InMemoryChatMemoryRepository()).maxMessages(window).build();
            int calls = 0;
            for (int op = 0; op < 200; op++) {
                int p = rnd.nextInt(2);
                int kind = rnd.nextInt(100);
                List<Message> added = new ArrayList<>();
                if (kind < 3) {
                    memories[p].clear("c");
                    model.clear("c");
                } else if (kind < 7) { // a caller's own save: the list without one of its messages, or a new one
                    List<Message> edited = new ArrayList<>(model.get("c"));
                    if (edited.size() > 2 && rnd.nextBoolean()) {
                        edited.remove(1 + rnd.nextInt(edited.size() - 2));
                    } else {
                        edited = List.of(new UserMessage("again " + op));
                    }
                    if (edited.stream().noneMatch(m -> m instanceof ToolResponseMessage)) {
                        checking(repos[p]).saveAll("c", edited);
                        model.clear("c");
                        model.add("c", edited);
                    }
                } else if (kind < 12) {
                    added.add(new SystemMessage("be brief " + rnd.nextInt(3)));
                } else if (kind < 30) {
                    int n = 1 + rnd.nextInt(2);
                    List<AssistantMessage.ToolCall> cs = new ArrayList<>();
                    List<ToolResponseMessage.ToolResponse> rs = new ArrayList<>();
                    for (int c = 0; c < n; c++) {
                        String id = "call_" + calls++;
                        cs.add(new AssistantMessage.ToolCall(id, "function", c == 0 ? "clock" : "weather", "{\"n\":" + c + "}"));
                        rs.add(new ToolResponseMessage.ToolResponse(id, c == 0 ? "clock" : "weather", "result of " + id));
                    }
                    added.add(AssistantMessage.builder().content("").toolCalls(cs).build());
                    if (rnd.nextInt(4) > 0) { // else the conversation moves on without the response
                        added.add(ToolResponseMessage.builder().responses(rs).build());
                    }
                } else if (kind < 65) {
                    added.add(new UserMessage("user " + op));
                } else {
                    added.add(new AssistantMessage("answer " + op));
                }
                if (!added.isEmpty()) {
                    try {
                        if (rnd.nextBoolean() || added.size() == 1) {
                            memories[p].add("c", added);
                        } else { // one add per message, as a chat client's advisor adds the call and its response
                            for (Message m : added) {
                                memories[p].add("c", m);
                            }
                        }
                        model.add("c", added);
                    } catch (IllegalArgumentException refused) { // both paths refused alike (checked): nothing was written
                        assertThat(refused).hasMessageContaining("does not follow");
                        model.clear("c");
                        model.add("c", memories[p].get("c"));
                    }
                }
                check(repos, memories, model);
            }
        }
        assertThat(FAST.get()).as("saves that took the fast path").isGreaterThan(seed % 2 == 0 ? 80 : 0);
    }


    /** Both repositories' reads equal the model; each cached view equals one built afresh. */
    private static void check(ThreadlineChatMemoryRepository[] repos, ChatMemory[] memories, ChatMemory model) {
        List<Message> expected = model.get("c");
        for (int p = 0; p < 2; p++) {
            assertThat(memories[p].get("c")).as("repository " + p).containsExactlyElementsOf(expected);
            Conversations conversations = repos[p].conversations();
            conversations.find("c").ifPresent(s -> {
                State st = s.state();
                assertThat(conversations.view(s.id(), st).messages()).isEqualTo(View.of(st).messages());
            });
        }
    }

    /** The events decided, or the message of the refusal. */
    private static Object outcome(java.util.function.Supplier<List<Event>> decide) {
        try {
            return decide.get();
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    /** The repository, each save decided first both ways on the session's current state, which must agree. */
    private static ChatMemoryRepository checking(ThreadlineChatMemoryRepository repo) {
        return new ChatMemoryRepository() {
            @Override
            public List<String> findConversationIds() {
                return repo.findConversationIds();
            }

            @Override
            public List<Message> findByConversationId(String id) {
                return repo.findByConversationId(id);
            }

            @Override
            public void saveAll(String id, List<Message> messages) {
                Conversations conversations = repo.conversations();
                conversations.find(id).ifPresent(s -> {
                    State st = s.state();
                    List<Message> copy = List.copyOf(messages);
                    View last = conversations.lastView(s.id());
                    Object slow = outcome(() -> Plan.replace(st, copy));
                    Object fast = outcome(() -> Plan.replace(st, copy, x -> View.of(x, last), last));
                    assertThat(fast).isEqualTo(slow);
                    if (last != null && last.itemsOf(copy) != null) {
                        FAST.incrementAndGet();
                    }
                });
                repo.saveAll(id, messages);
            }

            @Override
            public void deleteByConversationId(String id) {
                repo.deleteByConversationId(id);
            }
        };
    }
}
