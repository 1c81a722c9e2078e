package dev.threadline.harness.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The recorder and its line protocol: calls of a killed process become unknown. */
class HistoryTest {

    @Test
    void protocolLinesBecomeOperationsAndAKilledProcessesCallsBecomeUnknown() {
        History h = new History();
        assertThat(h.accept("A#1", HistoryLines.start("s1", "c1", "hello there"))).isTrue();
        assertThat(h.accept("A#1", HistoryLines.start("s2", "c2", "second"))).isTrue();
        assertThat(h.accept("A#1", HistoryLines.end(Outcome.OK, "s1", "c1"))).isTrue();
        assertThat(h.accept("A#1", "ACK s1 7 false")).isFalse();

        assertThat(h.inFlight()).isEqualTo(1);
        assertThat(h.abandon("B#1")).isEmpty();
        assertThat(h.abandon("A#1")).containsExactly(new Operation("s2", "c2", "second", Outcome.UNKNOWN, "A#1"));
        assertThat(h.inFlight()).isZero();

        assertThat(h.operations()).containsExactly(
                new Operation("s1", "c1", "hello there", Outcome.OK, "A#1"),
                new Operation("s2", "c2", "second", Outcome.UNKNOWN, "A#1"));
        assertThat(h.count(Outcome.UNKNOWN)).isEqualTo(1);
    }

    @Test
    void attemptsOfOneCommandIdInOneProcessMayOverlap() {
        History h = new History();
        h.started("A", "s1", "c1", "one");
        h.started("A", "s1", "c1", "one");
        h.ended("A", "c1", Outcome.OK);
        assertThat(h.inFlight()).isEqualTo(1);
        h.ended("A", "c1", Outcome.FAILED);
        assertThat(h.operations()).extracting(Operation::outcome).containsExactly(Outcome.OK, Outcome.FAILED);
        assertThat(h.inFlight()).isZero();
    }

    @Test
    void anEndWithoutAStartIsAnError() {
        History h = new History();
        assertThatThrownBy(() -> h.accept("A", HistoryLines.end(Outcome.FAILED, "s1", "c1")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("never started");
    }

    @Test
    void idsWithWhitespaceAreRefusedByTheProtocol() {
        assertThatThrownBy(() -> HistoryLines.start("s 1", "c1", "x")).isInstanceOf(IllegalArgumentException.class);
    }
}
