package dev.threadline.core.runtime;

import dev.threadline.core.Threadline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.threadline.core.event.Event;
import dev.threadline.core.llm.ScriptedModel;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.store.memory.InMemoryStateStore;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The loop streams replies to a per-command listener: word by word, in order, before the reply is journalled. */
class StreamingTest {

    @Test
    void aListenerSeesTheReplyWordByWordInOrderBeforeItIsJournalled() {
        ScriptedModel model = ScriptedModel.replies(TestSkills.toolCall("t1", "echo", "{\"text\":\"x\"}"),
                TestSkills.text("the answer is forty two"));
        try (Threadline tl = Threadline.builder().store(new InMemoryStateStore()).model(model).skill(TestSkills.echo()).build()) {
            Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
            List<TurnListener.TextDelta> deltas = new ArrayList<>();
            List<Long> journalledReplies = new ArrayList<>();
            TurnResult r = s.with(CommandOptions.builder().listener(d -> {
                deltas.add(d);
                journalledReplies.add(s.history().journal().stream().filter(e -> e.event() instanceof Event.AssistantMessageReceived a
                        && a.message().text().equals("the answer is forty two")).count());
            }).build()).submit("go");

            assertThat(r.reply()).isEqualTo("the answer is forty two");
            assertThat(deltas).extracting(TurnListener.TextDelta::text).containsExactly("the", " answer", " is", " forty", " two");
            assertThat(deltas).extracting(TurnListener.TextDelta::modelCall).containsOnly(2);
            assertThat(journalledReplies).as("each delta arrives before the reply is journalled").containsOnly(0L);
            assertThat(String.join("", deltas.stream().map(TurnListener.TextDelta::text).toList())).isEqualTo(r.reply());
        }
    }

    @Test
    void aListenerSeesEachToolCallsArgumentsInPiecesBeforeTheCallIsJournalled() {
        String args = "{\"text\":\"a longer argument than one piece\"}";
        ScriptedModel model = ScriptedModel.replies(TestSkills.toolCall("t1", "echo", args), TestSkills.text("done"));
        try (Threadline tl = Threadline.builder().store(new InMemoryStateStore()).model(model).skill(TestSkills.echo()).build()) {
            Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
            List<TurnListener.ToolInputDelta> pieces = new ArrayList<>();
            List<Long> journalledCalls = new ArrayList<>();
            s.with(CommandOptions.builder().listener(new TurnListener() {
                @Override
                public void onTextDelta(TextDelta delta) {}

                @Override
                public void onToolInputDelta(ToolInputDelta delta) {
                    pieces.add(delta);
                    journalledCalls.add(s.history().journal().stream().filter(e -> e.event() instanceof Event.ToolCallStarted).count());
                }
            }).build()).submit("go");

            assertThat(pieces).hasSizeGreaterThan(1);
            assertThat(pieces).extracting(TurnListener.ToolInputDelta::toolUseId).containsOnly("t1");
            assertThat(pieces).extracting(TurnListener.ToolInputDelta::toolName).containsOnly("echo");
            assertThat(pieces).extracting(TurnListener.ToolInputDelta::modelCall).containsOnly(1);
            assertThat(journalledCalls).as("each piece arrives before the call is journalled").containsOnly(0L);
            var call = s.history().journal().stream().map(e -> e.event()).filter(Event.AssistantMessageReceived.class::isInstance)
                    .map(e -> ((Event.AssistantMessageReceived) e).message()).flatMap(m -> m.toolUses().stream())
                    .findFirst().orElseThrow();
            String joined = String.join("", pieces.stream().map(TurnListener.ToolInputDelta::partialJson).toList());
            assertThat(dev.threadline.core.json.Json.parse(joined, "pieces")).isEqualTo(call.input());
        }
    }

    @Test
    void aFailingListenerDoesNotStopTheTurnAndNoListenerMeansNoStreaming() {
        try (Threadline tl = Threadline.builder().store(new InMemoryStateStore())
                .model(ScriptedModel.replies(TestSkills.text("one two"), TestSkills.text("three"))).build()) {
            Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
            TurnResult r = s.with(CommandOptions.builder().listener(d -> {
                throw new IllegalStateException("the socket is gone");
            }).build()).submit("go");
            assertThat(r.outcome()).isEqualTo(TurnResult.Outcome.COMPLETED);
            assertThat(r.reply()).isEqualTo("one two");
            assertThat(s.submit("again").reply()).isEqualTo("three");
        }
    }

    @Test
    void anApprovalStreamsTheRestOfTheTurnToItsListener() {
        try (Threadline tl = Threadline.builder().store(new InMemoryStateStore()).model(HumanSkills.model())
                .skill(HumanSkills.pay(HumanSkills.runs())).build()) {
            Session s = tl.defaultTenant().create("s1", SessionConfig.DEFAULT);
            s.submit("pay 3");
            StringBuilder seen = new StringBuilder();
            s.with(CommandOptions.builder().listener(d -> seen.append(d.text())).build()).approve("p1");
            assertThat(seen).hasToString("done: paid 3");
        }
    }
}
