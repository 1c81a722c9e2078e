package dev.threadline.core.skill;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.llm.ToolSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The skills a runtime offers, by name. Immutable: built once from a list, each skill checked by
 * {@link ArgumentValidator#check} (name, description, schema); shared by every session.
 */
public final class SkillRegistry {
    private final Map<String, Skill> byName;
    private final ArgumentValidator validator;

    private SkillRegistry(Map<String, Skill> byName, ArgumentValidator validator) {
        this.byName = Collections.unmodifiableMap(byName);
        this.validator = validator;
    }

    /** A registry of {@code skills}, in that order; refuses invalid skills and duplicate names. */
    public static SkillRegistry of(List<? extends Skill> skills) {
        return of(skills, new ArgumentValidator());
    }

    /** As {@link #of(List)}, checking with (and keeping) {@code validator}. */
    public static SkillRegistry of(List<? extends Skill> skills, ArgumentValidator validator) {
        if (skills == null) {
            throw new InvalidInputException("skills", "must not be null");
        }
        Map<String, Skill> byName = new LinkedHashMap<>();
        for (Skill skill : skills) {
            if (skill == null) {
                throw new InvalidInputException("skills", "must not contain null");
            }
            validator.requireRegistrable(skill);
            if (byName.putIfAbsent(skill.name(), skill) != null) {
                throw new InvalidInputException("skills", "two skills are named '" + skill.name()
                        + "' (" + byName.get(skill.name()).getClass().getName() + " and " + skill.getClass().getName()
                        + "); skill names must be unique");
            }
        }
        return new SkillRegistry(byName, validator);
    }

    /** An empty registry. */
    public static SkillRegistry empty() {
        return of(List.of());
    }

    /** The skill named {@code name}, if registered. */
    public Optional<Skill> find(String name) {
        return Optional.ofNullable(name == null ? null : byName.get(name));
    }

    /** Every skill, in registration order. */
    public List<Skill> all() {
        return List.copyOf(byName.values());
    }

    /** The names of the registered skills, in registration order. */
    public List<String> names() {
        return List.copyOf(byName.keySet());
    }

    /** The validator skills were checked with; use it for their arguments too. */
    public ArgumentValidator validator() {
        return validator;
    }

    /**
     * The tool specs of the enabled skills, in registration order; an empty (or null) list enables
     * every skill. Unknown names are refused, naming them and the registered ones.
     */
    public List<ToolSpec> toolSpecs(List<String> enabled) {
        List<ToolSpec> specs = new ArrayList<>();
        if (enabled == null || enabled.isEmpty()) {
            byName.values().forEach(s -> specs.add(spec(s)));
            return List.copyOf(specs);
        }
        List<String> unknown = enabled.stream().filter(n -> !byName.containsKey(n)).distinct().toList();
        if (!unknown.isEmpty()) {
            throw new InvalidInputException("skills", "unknown skill" + (unknown.size() == 1 ? " " : "s ") + unknown
                    + "; registered: " + byName.keySet());
        }
        byName.values().stream().filter(s -> enabled.contains(s.name())).forEach(s -> specs.add(spec(s)));
        return List.copyOf(specs);
    }

    private static ToolSpec spec(Skill s) {
        return new ToolSpec(s.name(), s.description(), s.inputSchema().deepCopy());
    }
}
