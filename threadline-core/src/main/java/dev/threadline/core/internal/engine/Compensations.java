package dev.threadline.core.internal.engine;

import dev.threadline.core.internal.engine.state.JournalReader;
import dev.threadline.core.internal.engine.state.StateManager;
import java.time.Clock;
import dev.threadline.core.internal.engine.state.Cmd;
import dev.threadline.core.runtime.SideEffect;
import dev.threadline.core.event.CheckpointSource;
import dev.threadline.core.event.Event;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.skill.Compensable;
import dev.threadline.core.skill.SimpleExecutionContext;
import dev.threadline.core.skill.Skill;
import dev.threadline.core.skill.SkillRegistry;
import dev.threadline.core.skill.SkillResult;
import dev.threadline.core.state.State;
import dev.threadline.core.store.SessionKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs the compensations of the side effects after a checkpoint, newest first, inside a command
 * holding the session's lease, recording each outcome as its own {@code EffectCompensated} step as
 * soon as it is known (so a crash loses none). Effects whose skill cannot compensate are left as
 * they are. Thread-safe (stateless over the engine).
 */
public final class Compensations {
    private final StateManager states;
    private final SkillRegistry skills;
    private final JournalReader reads;
    private final Clock clock;

    public Compensations(StateManager states, SkillRegistry skills, JournalReader reads, Clock clock) {
        this.states = states;
        this.skills = skills;
        this.reads = reads;
        this.clock = clock;
    }

    public List<SideEffect> run(SessionKey key, Cmd cmd, long seq) {
        List<SideEffect> effects = new ArrayList<>(SideEffects.after(reads, key, seq));
        java.util.Collections.reverse(effects);
        List<SideEffect> done = new ArrayList<>();
        for (SideEffect effect : effects) {
            Optional<Skill> skill = skills.find(effect.name());
            if (skill.isEmpty() || !(skill.get() instanceof Compensable c)) {
                continue;
            }
            State s = states.get(key);
            SimpleExecutionContext ctx = SimpleExecutionContext.of(key.id(), effect.toolUseId(), arguments(key, s, effect),
                    s.variables(), clock.instant().plusMillis(states.info(key).config().toolTimeoutMillis()));
            Event.EffectCompensated recorded;
            try {
                SkillResult r = c.compensate(ctx, effect.outcome());
                recorded = r == null ? new Event.EffectCompensated(effect.toolUseId(), effect.name(), "no result", true)
                        : new Event.EffectCompensated(effect.toolUseId(), effect.name(), r.content(), r.isError());
            } catch (Exception e) {
                recorded = new Event.EffectCompensated(effect.toolUseId(), effect.name(),
                        e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage(), true);
            }
            Event.EffectCompensated event = recorded;
            states.update(key, CheckpointSource.SYSTEM, cmd, st -> List.of(event));
            done.add(new SideEffect(effect.toolUseId(), effect.name(), effect.seq(), (event.error() ? "error: " : "ok: ") + event.outcome()));
        }
        return done;
    }

    /** The arguments the call ran with: a person's edited ones from its approval, else its tool_use's. */
    private com.fasterxml.jackson.databind.JsonNode arguments(SessionKey key, State s, SideEffect effect) {
        String toolUseId = effect.toolUseId();
        if (effect.seq() > 1) { // an approval is recorded right before the start, in the same step
            for (var e : reads.read(key, effect.seq() - 1, effect.seq() - 1)) {
                if (e.event() instanceof Event.ApprovalGiven g && g.toolUseId().equals(toolUseId) && g.arguments() != null) {
                    return g.arguments();
                }
            }
        }
        int i = s.toolUseIds().messageIndexOf(toolUseId);
        if (i >= 0) {
            Message m = s.messages().get(i);
            for (ContentBlock.ToolUse u : m.toolUses()) {
                if (u.id().equals(toolUseId)) {
                    return u.input();
                }
            }
        }
        return null;
    }
}
