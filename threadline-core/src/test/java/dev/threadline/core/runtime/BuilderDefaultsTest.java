package dev.threadline.core.runtime;

import dev.threadline.core.Threadline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.llm.ModelException;
import dev.threadline.core.model.Role;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.state.SessionStatus;
import dev.threadline.core.store.memory.InMemoryStateStore;
import org.junit.jupiter.api.Test;

/** A runtime has no silent defaults for what matters: a store must be named, and a missing model says so. */
class BuilderDefaultsTest {

    @Test
    void buildingWithoutAStoreIsRefusedNamingTheStoreAndTheWaysToSetOne() {
        Throwable t = catchThrowable(() -> Threadline.builder().build());

        assertThat(t).isInstanceOf(InvalidInputException.class);
        assertThat(((InvalidInputException) t).field()).isEqualTo("store");
        assertThat(t.getMessage()).contains("store(StateStore)").contains("store(url)").contains("Threadline.demoBuilder()");
    }

    @Test
    void withoutAModelSessionsWorkButATurnFailsSayingNoModelWasSet() {
        try (Threadline tl = Threadline.builder().store(new InMemoryStateStore()).build()) {
            Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);

            Throwable t = catchThrowable(() -> s.submit("hello"));

            assertThat(t).isInstanceOf(ModelException.class).hasMessageContaining("this runtime has no model")
                    .hasMessageContaining(".model(...)");
            assertThat(((ModelException) t).retryable()).isFalse();
            assertThat(s.state().status()).isEqualTo(SessionStatus.IDLE); // the failed turn was closed
            assertThat(s.state().messages()).extracting(m -> m.role()).containsExactly(Role.USER);
        }
    }

    @Test
    void theDemoBuilderRunsTheScriptedDemoModelOnAnInMemoryStore() {
        try (Threadline tl = Threadline.demoBuilder().build()) {
            TurnResult r = tl.defaultTenant().create("demo", SessionConfig.DEFAULT).submit("hello");

            assertThat(r.reply()).containsIgnoringCase("offline demo");
            assertThat(tl.durability()).containsIgnoringCase("memory");
        }
    }

    @Test
    void theDemoStoreRunsOnTheClockTheBuilderEndsUpWith() {
        java.time.Instant t0 = java.time.Instant.parse("2030-01-01T00:00:00Z");
        try (Threadline tl = Threadline.demoBuilder().clock(java.time.Clock.fixed(t0, java.time.ZoneOffset.UTC)).build()) {
            tl.defaultTenant().create("demo", SessionConfig.DEFAULT);

            // the store's own times (the sessions index) follow the builder's clock, set after demoBuilder()
            assertThat(tl.defaultTenant().sessions().items()).singleElement().extracting(s -> s.updatedAt()).isEqualTo(t0);
        }
    }
}
