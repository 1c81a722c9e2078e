package dev.threadline.store.postgres;

import dev.threadline.core.error.LeaseLostException;
import dev.threadline.core.error.VersionConflictException;
import dev.threadline.core.store.AppendRequest;
import dev.threadline.core.store.LeaseResult;
import dev.threadline.core.store.SessionKey;
import dev.threadline.store.tck.StoreFixtures;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A second Threadline process for {@link PostgresTwoProcessesTest}: opens its own store on the given
 * database and schema, takes the lease of a session for a short ttl and reports it, then appends one
 * step each time it reads "APPEND" on stdin and reports what the store said. One line per answer.
 */
public final class PgChild {
    private PgChild() {}

    public static void main(String[] args) throws Exception {
        String url = args[0];
        String schema = args[1];
        SessionKey key = new SessionKey("t", args[2]);
        Duration ttl = Duration.ofMillis(Long.parseLong(args[3]));
        try (PostgresStateStore store = PostgresStateStore.open(url, PostgresStateStore.Options.defaults().withSchema(schema));
             BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
            LeaseResult r = store.acquire(key, "child-" + ProcessHandle.current().pid(), ttl, null);
            if (!(r instanceof LeaseResult.Acquired a)) {
                System.out.println("HELD");
                return;
            }
            long epoch = a.lease().epoch();
            System.out.println("LEASED " + epoch);
            System.out.flush();
            for (String line; (line = in.readLine()) != null; ) {
                if (!line.equals("APPEND")) {
                    continue;
                }
                long head = store.head(key);
                try {
                    long after = store.append(AppendRequest.of(key, head, epoch, StoreFixtures.messages(key.id(), head + 1, 1)));
                    System.out.println("OK " + after);
                } catch (LeaseLostException e) {
                    System.out.println("LEASE_LOST " + e.currentEpoch());
                } catch (VersionConflictException e) {
                    System.out.println("CONFLICT " + e.actual());
                }
                System.out.flush();
            }
        }
    }
}
