package dev.threadline.store.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisCommandExecutionException;
import org.junit.jupiter.api.Test;

/** How Redis's replies become one-line storage errors; named after the bug the soak found. */
class FailuresTest {
    @Test
    void clusterDownDuringAFailoverIsStoreUnavailable() {
        // the chaos soak: a cluster failover answered CLUSTERDOWN, reported as a plain failure, not as the
        // store being unavailable (HTTP 503 and a retry later), as a lost connection is
        for (String reply : new String[] {"CLUSTERDOWN The cluster is down", "MASTERDOWN Link with MASTER is down",
                "LOADING Redis is loading the dataset in memory", "TRYAGAIN Multiple keys request during rehashing of slot",
                "READONLY You can't write against a read only replica."}) {
            RuntimeException e = Failures.wrap("redis://h:1", "read session 's'", new RedisCommandExecutionException(reply));
            assertThat(e.getMessage()).isEqualTo("redis store redis://h:1 unavailable: cannot read session 's' (" + reply + ")");
        }
    }

    @Test
    void aWaitOnAMasterTurnedReplicaMidWriteIsStoreUnavailable() {
        // the hour-long soak: a restarted master took a write before the cluster told it it had been replaced, then
        // turned replica before its WAIT; the write was never acknowledged (its fate unknown, as in any failover),
        // but the store reported a plain failure of the append
        String reply = "ERR WAIT cannot be used with replica instances. Please also note that since Redis 4.0 if a replica is"
                + " configured to be writable (which is not the default) writes to replicas are just local and are not propagated.";
        RuntimeException e = Failures.wrap("redis://h:1", "append to session 's'", new RedisCommandExecutionException(reply));
        assertThat(e.getMessage()).startsWith("redis store redis://h:1 unavailable: cannot append to session 's' (ERR WAIT cannot");
    }

    @Test
    void otherErrorRepliesStayFailuresOfTheCommand() {
        RuntimeException e = Failures.wrap("redis://h:1", "read session 's'", new RedisCommandExecutionException("ERR wrong number of arguments"));
        assertThat(e.getMessage()).isEqualTo("redis store redis://h:1: cannot read session 's' (ERR wrong number of arguments)");
    }
}
