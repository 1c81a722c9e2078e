package dev.threadline.langchain4j;

import static dev.threadline.langchain4j.Fixtures.call;
import static dev.threadline.langchain4j.Fixtures.result;
import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.langchain4j.store.memory.chat.InMemoryChatMemoryStore;
import dev.threadline.core.Threadline;
import dev.threadline.core.event.Event;
import dev.threadline.core.state.State;
import dev.threadline.store.sqlite.SqliteStateStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The fast path (views built from the last one, the list handed back recognised by identity) against the slow
 * one (everything converted and compared): random sequences of adds, evictions, system messages, tool calls,
 * edits and clears from two processes (two runtimes on one SQLite file, each with its own store and cache).
 * Every update is decided both ways on the same state and must give the same events; every read must equal a
 * view built afresh and what LangChain4j's window memory holds over its own in-memory store. Deleting a memory
 * runs in one process only: a second runtime that cached the deleted session's state at the same journal
 * position as its successor's head keeps reading the old state (a runtime matter, not the adapter's).
 */
class FastPathDifferentialTest {
    private static final java.util.concurrent.atomic.AtomicInteger FAST = new java.util.concurrent.atomic.AtomicInteger();

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void random_sequences_from_two_processes_decide_and_read_as_the_slow_path(long seed, @TempDir Path dir) {
        FAST.set(0);
        Random rnd = new Random(seed);
        int window = seed % 2 == 0 ? 1_000 : 4 + rnd.nextInt(6);
        Path db = dir.resolve("memory.db");
        try (Threadline a = Threadline.builder().store(SqliteStateStore.open(db)).leaseLinger(Duration.ZERO).build();
             Threadline b = Threadline.builder().store(SqliteStateStore.open(db)).leaseLinger(Duration.ZERO).build()) {
            ThreadlineChatMemoryStore[] stores = {new ThreadlineChatMemoryStore(a.tenant("acme")), new ThreadlineChatMemoryStore(b.tenant("acme"))};
            ChatMemory[] memories = new ChatMemory[2];
            for (int p = 0; p < 2; p++) {
                memories[p] = MessageWindowChatMemory.builder().id("m").maxMessages(window).chatMemoryStore(checking(stores[p])).build();
            }
            ChatMemory model = MessageWindowChatMemory.builder().id("m").maxMessages(window).chatMemoryStore(new InMemoryChatMemoryStore()).build();
            List<ToolExecutionRequest> open = new ArrayList<>();
            int calls = 0;
            boolean deletes = seed > 6; // one process then: another's runtime may keep a deleted session's state (see below)
            for (int op = 0; op < 160; op++) {
                int p = deletes ? 0 : rnd.nextInt(2);
                int kind = rnd.nextInt(100);
                ChatMessage m;
                if (!open.isEmpty() && kind < 60) {
                    ToolExecutionRequest r = open.remove(0); // in call order: the view keeps results by call position
                    m = result(r, "result of " + r.id());
                } else if (kind < 4 && deletes) {
                    memories[p].clear();
                    model.clear();
                    open.clear();
                    check(stores, memories, model, deletes ? 1 : 2);
                    continue;
                } else if (kind < 4) { // a new conversation set over the old one: a clear step, then the list
                    List<ChatMessage> fresh = List.of(UserMessage.from("again " + op));
                    checking(stores[p]).updateMessages("m", fresh);
                    model.set(fresh);
                    open.clear();
                    check(stores, memories, model, deletes ? 1 : 2);
                    continue;
                } else if (kind < 8) { // a caller's own edit: the list without one of its messages
                    List<ChatMessage> edited = new ArrayList<>(model.messages());
                    if (edited.size() > 2) {
                        edited.remove(1 + rnd.nextInt(edited.size() - 2));
                        if (edited.stream().noneMatch(x -> x instanceof dev.langchain4j.data.message.ToolExecutionResultMessage)) {
                            checking(stores[p]).updateMessages("m", edited);
                            model.set(edited);
                            open.clear();
                            check(stores, memories, model, deletes ? 1 : 2);
                        }
                    }
                    continue;
                } else if (kind < 14) {
                    m = SystemMessage.from("be brief " + rnd.nextInt(3));
                } else if (kind < 30) {
                    open.clear();
                    int n = 1 + rnd.nextInt(2);
                    List<ToolExecutionRequest> reqs = new ArrayList<>();
                    for (int c = 0; c < n; c++) {
                        reqs.add(call("c" + calls++, c == 0 ? "clock" : "weather", "{\"n\":" + c + "}"));
                    }
                    open.addAll(reqs);
                    m = AiMessage.from(reqs);
                } else if (kind < 60) {
                    open.clear();
                    m = UserMessage.from("user " + op);
                } else {
                    open.clear();
                    m = AiMessage.from("answer " + op);
                }
                memories[p].add(m);
                model.add(m);
                check(stores, memories, model, deletes ? 1 : 2);
            }
        }
        assertThat(FAST.get()).as("updates that took the fast path").isGreaterThan(window > 100 ? 60 : 0);
    }

    /** Both processes' reads, and a fresh store's, equal the model; each cached view equals one built afresh. */
    private static void check(ThreadlineChatMemoryStore[] stores, ChatMemory[] memories, ChatMemory model, int processes) {
        List<ChatMessage> expected = model.messages();
        for (int p = 0; p < processes; p++) {
            assertThat(memories[p].messages()).as("process " + p).isEqualTo(expected);
            MemorySessions sessions = stores[p].sessions();
            sessions.find("m").ifPresent(s -> {
                State st = s.state();
                assertThat(sessions.view(s.id(), st).messages()).isEqualTo(View.of(st).messages());
            });
        }
    }

    /** The store, each update decided first both ways on the session's current state, which must agree. */
    private static ChatMemoryStore checking(ThreadlineChatMemoryStore store) {
        return new ChatMemoryStore() {
            @Override
            public List<ChatMessage> getMessages(Object memoryId) {
                return store.getMessages(memoryId);
            }

            @Override
            public void updateMessages(Object memoryId, List<ChatMessage> messages) {
                MemorySessions sessions = store.sessions();
                sessions.find(memoryId).ifPresent(s -> {
                    State st = s.state();
                    List<ChatMessage> copy = List.copyOf(messages);
                    View last = sessions.lastView(s.id());
                    List<Event> slow = Plan.replace(st, copy);
                    List<Event> fast = Plan.replace(st, copy, x -> View.of(x, last), last);
                    assertThat(fast).isEqualTo(slow);
                    if (last != null && last.parsedFrom(copy) != null) {
                        FAST.incrementAndGet();
                    }
                });
                store.updateMessages(memoryId, messages);
            }

            @Override
            public void deleteMessages(Object memoryId) {
                store.deleteMessages(memoryId);
            }
        };
    }
}
