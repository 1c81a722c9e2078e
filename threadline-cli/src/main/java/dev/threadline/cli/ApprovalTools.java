package dev.threadline.cli;

import dev.threadline.core.skill.Skill;
import dev.threadline.core.skill.builtin.AskUserSkill;
import java.util.List;
import java.util.TreeSet;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * Checks {@code chat --require-approval TOOL} before anything is opened: each name must be a tool
 * this chat offers (a built-in skill, an extension's, or {@code NAME_…} of an {@code --mcp NAME=…}
 * server, whose tools are known only once it runs). Stateless.
 */
final class ApprovalTools {
    private ApprovalTools() {}

    /** Throws bad usage (exit 2) naming the first unknown tool and the tools there are. */
    static void check(CommandSpec spec, List<String> names, List<Skill> builtins, List<Skill> extension, List<String> mcp) {
        TreeSet<String> known = new TreeSet<>();
        builtins.forEach(s -> known.add(s.name()));
        extension.forEach(s -> known.add(s.name()));
        for (String name : names) {
            boolean fromMcp = mcp.stream().map(m -> m.split("=", 2)[0].strip() + "_").anyMatch(p -> name.startsWith(p));
            if (name.equals(AskUserSkill.NAME)) {
                throw new ParameterException(spec.commandLine(), "--require-approval " + AskUserSkill.NAME
                        + ": a question already waits for your answer; approval is for tools that act");
            }
            if (!known.contains(name) && !fromMcp) {
                throw new ParameterException(spec.commandLine(), "--require-approval: no tool '" + name + "' in this chat; the tools are "
                        + String.join(", ", known) + (mcp.isEmpty() ? "" : " and those of --mcp servers (NAME_TOOL)"));
            }
        }
    }
}
