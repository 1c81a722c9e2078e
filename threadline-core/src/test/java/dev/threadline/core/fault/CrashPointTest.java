package dev.threadline.core.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The crash points' names; halting itself is tested by the stores' crash-point tests, in child JVMs. */
class CrashPointTest {

    @Test
    void everyPointHasItsOwnNameAndIsFoundByIt() {
        assertThat(Arrays.stream(CrashPoint.values()).map(CrashPoint::wireName).distinct().count())
                .isEqualTo(CrashPoint.values().length);
        for (CrashPoint p : CrashPoint.values()) {
            assertThat(CrashPoint.ofWireName(p.wireName())).isSameAs(p);
            assertThat(p.wireName()).matches("[a-z]+\\.[a-z-]+");
        }
    }

    @Test
    void anUnknownNameIsRefusedNamingThePropertyAndTheKnownPoints() {
        assertThatThrownBy(() -> CrashPoint.ofWireName("step.after-apend")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("-Dthreadline.crashAt").hasMessageContaining("'step.after-apend'")
                .hasMessageContaining("step.after-append, step.before-reply");
    }

    @Test
    void unarmedEveryPointIsPassedThrough() {
        assertThat(CrashPoint.armed()).isNull(); // the suite runs without -Dthreadline.crashAt
        for (CrashPoint p : CrashPoint.values()) {
            p.reach(); // would halt this JVM if armed
        }
    }
}
