package dev.threadline.core.skill.builtin;

import dev.threadline.core.skill.Skill;
import java.nio.file.Path;
import java.util.List;

/** The skills that ship with Threadline. */
public final class Builtins {
    private Builtins() {}

    /**
     * {@code calculate}, {@code meeting_minutes}, {@code read_file} and {@code list_files}, the file
     * skills confined to {@code workspace} (an existing directory; {@code Path.of(".")} for the current
     * one). Creates nothing. Stateless skills, safe to share between runtimes.
     *
     * @throws dev.threadline.core.error.InvalidInputException when {@code workspace} is not an existing, readable
     *         directory: check it before opening a store, so that nothing is created for a mistyped path
     */
    public static List<Skill> all(Path workspace) {
        Workspace ws = new Workspace(workspace);
        return List.of(new CalculateSkill(), new MeetingMinutesSkill(), new ReadFileSkill(ws), new ListFilesSkill(ws));
    }

    /**
     * {@code ask_user}: the model's questions to the user, which suspend the turn until
     * {@code Session.answer}. Not in {@link #all}: register it where a person can answer (the CLI's
     * chat does, at its prompt), e.g. {@code builder.skills(all(ws)).skill(askUser())}.
     */
    public static Skill askUser() {
        return new AskUserSkill();
    }

    /**
     * {@code recall}: the model searches everything said earlier in its session, also what left the
     * context window, and gets the best matching messages with their seqs. Not in {@link #all}: it adds a
     * tool to every model call; register it where long sessions need it,
     * e.g. {@code builder.skills(all(ws)).skill(recall())}.
     */
    public static Skill recall() {
        return new RecallSkill();
    }
}
