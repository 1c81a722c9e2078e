package dev.threadline.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.Threadline;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A tenant's default session ttl ({@link Threadline.Builder#sessionTtl}): applied to a session created
 * without its own, never over one it gives, kept by its forks, swept like any other expiry; a bad default
 * is refused at the create, naming the tenant, and creates nothing.
 */
class TenantDefaultTtlTest {
    private final TestClock clock = new TestClock();
    private final Threadline tl = Threadline.builder().store(new InMemoryStateStore(clock)).clock(clock).model(ScriptedModel.demo())
            .sessionTtl(Map.of("short", Duration.ofHours(1), "broken", Duration.ZERO)::get).build();

    @AfterEach
    void close() {
        tl.close();
    }

    @Test
    void aTenantsDefaultAppliesWhereASessionGivesNoneAndIsSweptAtIt() {
        Tenant shortLived = tl.tenant("short");
        Session plain = shortLived.create(NewSession.of("plain", SessionConfig.DEFAULT));
        Session own = shortLived.create(new NewSession("own", null, SessionConfig.DEFAULT, Map.of(), Duration.ofDays(2)));
        Session other = tl.tenant("other").create(NewSession.of("plain", SessionConfig.DEFAULT));
        Session kept = shortLived.create(new NewSession("kept", null, SessionConfig.DEFAULT, Map.of(), NewSession.FOREVER));

        assertThat(plain.info().expiresAt()).isEqualTo(plain.info().createdAt().plus(Duration.ofHours(1)));
        assertThat(own.info().expiresAt()).isEqualTo(own.info().createdAt().plus(Duration.ofDays(2)));
        assertThat(other.info().expiresAt()).isNull();
        assertThat(kept.info().expiresAt()).as("FOREVER wins over the tenant's default").isNull();
        plain.submit("what is 2+2");
        Session fork = plain.fork(plain.state().seq());
        assertThat(fork.info().expiresAt()).isEqualTo(plain.info().expiresAt());

        clock.advance(Duration.ofHours(2));
        assertThat(tl.sweep(10).removed()).isEqualTo(2);
        assertThat(shortLived.sessions().items()).extracting(s -> s.info().id()).containsExactlyInAnyOrder("own", "kept");
        assertThat(tl.tenant("other").sessions().items()).hasSize(1);
    }

    @Test
    void aBadDefaultIsRefusedNamingTheTenantAndCreatesNothing() {
        assertThatThrownBy(() -> tl.tenant("broken").create(NewSession.of("x", SessionConfig.DEFAULT)))
                .isInstanceOf(InvalidInputException.class).hasMessageContaining("sessionTtl").hasMessageContaining("'broken'");
        assertThat(tl.tenant("broken").sessions().items()).isEmpty();
    }
}
