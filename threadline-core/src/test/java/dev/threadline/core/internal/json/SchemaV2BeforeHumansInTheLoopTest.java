package dev.threadline.core.internal.json;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.session.DoubleTexting;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.session.SessionInfo;
import dev.threadline.core.state.StateSnapshot;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Records written by schema version 2 before humans in the loop (fixtures in
 * src/test/resources/fixtures/v2) read with the new fields at their defaults: no tool needs approval,
 * second messages queue, no denials, no call waits for a person. That is why the version stays 2.
 */
class SchemaV2BeforeHumansInTheLoopTest {

    private static String fixture(String name) throws IOException {
        try (InputStream in = SchemaV2BeforeHumansInTheLoopTest.class.getResourceAsStream("/fixtures/v2/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void aStoredConfigWithoutApprovalsOrDoubleTextingReadsThemAsTheDefaults() throws IOException {
        SessionInfo info = RecordCodec.decodeSession("old2", fixture("session-row-before-hitl.json"));

        assertThat(info.config().requireApproval()).isEmpty();
        assertThat(info.config().doubleTexting()).isEqualTo(DoubleTexting.ENQUEUE);
        assertThat(info.config()).isEqualTo(SessionConfig.DEFAULT.withSkills(java.util.List.of("calculate")));
    }

    @Test
    void aStoredSnapshotWithoutDenialsOrWaitingCallsReadsThemAsNone() throws IOException {
        StateSnapshot snap = RecordCodec.decodeSnapshot("old2", RecordCodec.VERSION, fixture("snapshot-before-hitl.json"));

        assertThat(snap).isNotNull();
        assertThat(snap.permissionDenials()).isZero();
        assertThat(snap.pending()).singleElement().satisfies(p -> {
            assertThat(p.awaiting()).isNull();
            assertThat(p.started()).isTrue();
        });
    }
}
