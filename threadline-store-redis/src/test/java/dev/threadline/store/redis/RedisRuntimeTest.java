package dev.threadline.store.redis;

import dev.threadline.harness.servers.RedisClusterProcesses;
import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.runtime.Session;
import dev.threadline.core.Threadline;
import dev.threadline.core.runtime.TurnResult;
import dev.threadline.core.state.State;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The runtime on a Redis Cluster: two runtimes, each with its own store instance (its own connection
 * and lease owner, as two processes would be), take turns on one session; each resumes what the other
 * wrote, forks work, and the journal stays gapless.
 */
class RedisRuntimeTest {

    private static Threadline runtime(String url) {
        return Threadline.builder().store(RedisStateStore.open(url, RedisStateStore.Options.defaults().withPrefix("runtime")))
                .model(ScriptedModel.demo()).leaseTtl(Duration.ofSeconds(10)).leaseWait(Duration.ofSeconds(20))
                .leaseLinger(Duration.ZERO).build();
    }

    @Test
    void twoRuntimesOnOneClusterResumeEachOthersSession() {
        try (RedisClusterProcesses cluster = RedisClusterProcesses.start();
             Threadline a = runtime(cluster.url()); Threadline b = runtime(cluster.url())) {
            a.tenant("acme").create("chat", SessionConfig.DEFAULT);
            for (int i = 0; i < 3; i++) {
                Threadline writer = i % 2 == 0 ? a : b;
                TurnResult r = writer.tenant("acme").open("chat").submit("hello " + i);
                assertThat(r.outcome()).as("turn %d", i).isEqualTo(TurnResult.Outcome.COMPLETED);
            }
            Session seen = a.tenant("acme").open("chat");
            State s = seen.state();
            assertThat(s.isIdle()).isTrue();
            assertThat(s.messages()).hasSizeGreaterThanOrEqualTo(6);
            List<StoredEvent> journal = seen.history().journal();
            for (int i = 0; i < journal.size(); i++) {
                assertThat(journal.get(i).seq()).isEqualTo(i + 1L);
            }
            assertThat(b.tenant("acme").open("chat").history().journal()).isEqualTo(journal);

            Session fork = b.tenant("acme").open("chat").fork(journal.get(journal.size() - 1).seq(), "chat-fork");
            assertThat(fork.submit("and then?").outcome()).isEqualTo(TurnResult.Outcome.COMPLETED);
            assertThat(a.tenant("acme").open("chat-fork").state().messages()).hasSizeGreaterThan(s.messages().size());
            assertThat(a.tenant("acme").sessions().items()).extracting(x -> x.info().id()).containsExactly("chat-fork", "chat");
            assertThat(a.tenant("other").sessions().items()).isEmpty();
        }
    }
}
