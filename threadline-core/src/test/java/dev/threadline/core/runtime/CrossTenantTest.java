package dev.threadline.core.runtime;

import dev.threadline.core.Threadline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.threadline.core.error.SessionNotFoundException;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Another tenant's session id behaves exactly like an unknown one through every public operation, and a
 * canary string in tenant A's session appears in no result, exception or log line produced through tenant B.
 */
class CrossTenantTest {
    private static final String CANARY = "canary-7f3a91";

    @Test
    void everyOperationWithAnotherTenantsIdBehavesAsForAnUnknownIdAndLeaksNothing() {
        PrintStream err = System.err;
        ByteArrayOutputStream logs = new ByteArrayOutputStream();
        List<String> seenThroughB = new ArrayList<>();
        try (Threadline tl = Threadline.builder().store(new InMemoryStateStore()).model(ScriptedModel.demo()).skill(TestSkills.echo()).build()) {
            Tenant a = tl.tenant("acme");
            Session secret = a.create("secret", SessionConfig.DEFAULT.withSystemPrompt(CANARY));
            secret.submit("my password is " + CANARY);
            for (VariableScope scope : List.of(VariableScope.SESSION, VariableScope.APP, VariableScope.USER)) {
                secret.edit("test", "a canary in every scope",
                        List.of(new dev.threadline.core.state.Edit.SetVariable(scope, "k", TextNode.valueOf(CANARY))));
            }

            Tenant b = tl.tenant("other");
            b.addListener((id, events, state) -> seenThroughB.add(id + events + state));
            System.setErr(new PrintStream(logs, true, StandardCharsets.UTF_8));
            List<Function<String, Object>> operations = List.of(
                    b::open,
                    id -> b.find(id).orElseThrow(() -> new SessionNotFoundException(id)),
                    id -> {
                        b.delete(id);
                        return null;
                    });
            for (Function<String, Object> op : operations) {
                Throwable forOther = catchThrowable(() -> op.apply("secret"));
                Throwable forUnknown = catchThrowable(() -> op.apply("never-was"));
                assertThat(forOther).isInstanceOf(SessionNotFoundException.class);
                assertThat(forOther.getClass()).isEqualTo(forUnknown.getClass());
                assertThat(forOther.getMessage()).isEqualTo(forUnknown.getMessage().replace("never-was", "secret"));
                seenThroughB.add(String.valueOf(forOther));
            }
            seenThroughB.add(b.sessions().toString());
            seenThroughB.add(b.appVariables().toString());
            seenThroughB.add(b.userVariables("local").toString());
            Session mine = b.openOrCreate("secret", SessionConfig.DEFAULT); // ids are per tenant: B gets its own, empty
            seenThroughB.add(mine.state().toString());
            seenThroughB.add(mine.history().journal().toString());
            seenThroughB.add(mine.history().checkpoints().toString());
            seenThroughB.add(mine.variables(VariableScope.APP).toString());
            seenThroughB.add(mine.variables(VariableScope.USER).toString());
            seenThroughB.add(mine.info().toString());
            seenThroughB.add(mine.submit("hello").toString());
            seenThroughB.add(mine.fork(1, "fork").state().toString());
            seenThroughB.add(mine.history().events(0, 100).toString());
            seenThroughB.add(b.sessions().toString());
            assertThat(b.sessions().items()).extracting(x -> x.info().id()).containsExactlyInAnyOrder("secret", "fork");
            assertThat(a.open("secret").state().messages().get(0).text()).contains(CANARY); // A still has it all
        } finally {
            System.setErr(err);
        }
        String everything = String.join("\n", seenThroughB) + logs.toString(StandardCharsets.UTF_8);
        assertThat(everything).doesNotContain(CANARY);
        assertThat(seenThroughB).isNotEmpty();
    }
}
