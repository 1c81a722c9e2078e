package dev.threadline.store.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.store.StateStore;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.lang.reflect.Method;
import java.time.Clock;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;

/** The contract cannot shrink or be skipped without this test noticing. */
class ContractGuardTest {

    /** Raise this when a test is added to the contract; a drop means a test was lost. */
    private static final int CONTRACT_TESTS = 89;

    @Test
    void theContractHasAllItsTestsAndEachIsPublicFinalAndEnabled() {
        assertThat(ContractGuard.contractTests()).hasSize(CONTRACT_TESTS);
        assertThat(ContractGuard.contractTests().stream().map(Method::getName).distinct()).hasSize(CONTRACT_TESTS);
        assertThat(ContractGuard.problems(InMemoryStateStoreTest.class)).isEmpty();
    }

    @Test
    void everySuiteHoldsTestsAndRunsNestedUnderTheWholeContract() {
        assertThat(ContractGuard.contractTests().stream().map(Method::getDeclaringClass).distinct())
                .containsExactlyInAnyOrderElementsOf(ContractGuard.SUITES);
        assertThat(ContractGuard.nestedSuites().stream().<Class<?>>map(Class::getSuperclass).toList())
                .containsExactlyElementsOf(ContractGuard.SUITES);
        assertThat(ContractGuard.ROLE_SUITES.keySet()).containsExactlyInAnyOrderElementsOf(ContractGuard.roles());
    }

    @Test
    void aDisabledBackendIsReported() {
        assertThat(ContractGuard.problems(DisabledBackend.class)).singleElement().asString().contains("@Disabled");
        assertThat(ContractGuard.problems(ConditionalBackend.class)).singleElement().asString().contains("@DisabledIfSystemProperty");
        assertThat(ContractGuard.problems(AbstractBackend.class)).singleElement().asString().contains("abstract");
    }

    @Disabled("fixture of aDisabledBackendIsReported, never run")
    static class DisabledBackend extends StateStoreContract {
        @Override
        public StateStore open(Clock clock) {
            return new InMemoryStateStore(clock);
        }
    }

    @DisabledIfSystemProperty(named = "java.version", matches = ".*", disabledReason = "fixture, never run")
    static class ConditionalBackend extends StateStoreContract {
        @Override
        public StateStore open(Clock clock) {
            return new InMemoryStateStore(clock);
        }
    }

    abstract static class AbstractBackend extends StateStoreContract {
    }
}
