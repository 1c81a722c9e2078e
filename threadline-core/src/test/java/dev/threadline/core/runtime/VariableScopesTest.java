package dev.threadline.core.runtime;

import dev.threadline.core.Threadline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.threadline.core.event.Event;
import dev.threadline.core.event.StoredEvent;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.skill.ExecutionContext;
import dev.threadline.core.skill.SkillResult;
import dev.threadline.core.state.VariableScope;
import dev.threadline.core.store.memory.InMemoryStateStore;
import dev.threadline.core.store.ScopedWrite;
import java.util.List;
import org.junit.jupiter.api.Test;

class VariableScopesTest {

    /** scopes {"tag": s}: reports what it sees in every scope, then writes tag into every scope. */
    private static final TestSkills.Simple SCOPES = new TestSkills.Simple("scopes",
            "{\"type\":\"object\",\"properties\":{\"tag\":{\"type\":\"string\"}},\"required\":[\"tag\"]}") {
        @Override
        public SkillResult execute(ExecutionContext c) {
            String tag = c.arguments().get("tag").asText();
            String seen = "session=" + c.variables(VariableScope.SESSION).get("v") + " user=" + c.variables(VariableScope.USER).get("v")
                    + " app=" + c.variables(VariableScope.APP).get("v") + " temp=" + c.variables(VariableScope.TEMP).get("v");
            return SkillResult.ok(seen)
                    .withWrite(VariableScope.SESSION, "v", TextNode.valueOf(tag))
                    .withWrite(VariableScope.USER, "v", TextNode.valueOf(tag))
                    .withWrite(VariableScope.APP, "v", TextNode.valueOf(tag))
                    .withWrite(VariableScope.TEMP, "v", IntNode.valueOf(tag.length()));
        }
    };

    /** Two sequential calls per turn: "x" then "y"; then end. */
    private static ScriptedModel model() {
        return ScriptedModel.of(req -> {
            int n = req.messages().size();
            String text = req.messages().get(n - 1).text();
            if (!text.isEmpty()) {
                return TestSkills.toolCall(text + "-1-" + n, "scopes", "{\"tag\":\"" + text + "1\"}");
            }
            if (req.messages().get(n - 2).toolUses().get(0).id().contains("-1-")) {
                String tag = req.messages().get(n - 2).toolUses().get(0).id().split("-")[0];
                return TestSkills.toolCall(tag + "-2-" + n, "scopes", "{\"tag\":\"" + tag + "2\"}");
            }
            return TestSkills.text("done");
        });
    }

    @Test
    void sessionUserAppAndTempScopesEachKeepTheirOwnLifetime() {
        InMemoryStateStore store = new InMemoryStateStore();
        try (Threadline tl = Threadline.builder().store(store).model(model()).skill(SCOPES).build()) {
            Session a = tl.defaultTenant().create("a", SessionConfig.DEFAULT);
            a.submit("p");
            List<ContentBlock.ToolResult> seen = results(a);
            assertThat(seen.get(0).content()).isEqualTo("session=null user=null app=null temp=null");
            assertThat(seen.get(1).content()).as("temp lives through the turn")
                    .isEqualTo("session=\"p1\" user=\"p1\" app=\"p1\" temp=2");

            Session b = tl.defaultTenant().create("b", SessionConfig.DEFAULT);
            b.submit("q");
            assertThat(results(b).get(0).content()).as("user and app are shared, session and temp are not")
                    .isEqualTo("session=null user=\"p2\" app=\"p2\" temp=null");

            a.submit("r");
            assertThat(results(a).get(2).content()).as("temp was cleared at the new turn")
                    .isEqualTo("session=\"p2\" user=\"q2\" app=\"q2\" temp=null");

            assertThat(store.variables(VariableScope.USER, ScopedWrite.userKey("default", "local")).get("v").asText()).isEqualTo("r2");
            assertThat(store.variables(VariableScope.APP, ScopedWrite.appKey("default")).get("v").asText()).isEqualTo("r2");
            assertThat(a.history().journal()).extracting(StoredEvent::event).filteredOn(e -> e instanceof Event.VariablesChanged)
                    .extracting(e -> ((Event.VariablesChanged) e).scope())
                    .doesNotContain(VariableScope.TEMP)
                    .contains(VariableScope.SESSION, VariableScope.USER, VariableScope.APP);
        }
    }

    private static List<ContentBlock.ToolResult> results(Session s) {
        return s.state().messages().stream().flatMap(m -> m.toolResults().stream()).toList();
    }
}
