package dev.threadline.cli;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.skill.Skill;
import java.util.List;

/**
 * A hook for tests and embedders of {@code threadline chat}: extra skills and a wrapper around the
 * chosen model. Named by the system property {@value #PROPERTY} (a class on the class path with a
 * public no-argument constructor), e.g. {@code java -Dthreadline.chat.extension=com.example.Slow -cp ...
 * dev.threadline.cli.Main chat --model scripted}. Without the property the chat is as shipped. The
 * CLI's own tests use it for a slow skill and a model that streams on cue.
 */
public interface ChatExtension {
    /** The system property that names the extension class. */
    String PROPERTY = "threadline.chat.extension";

    /** Skills added to the chat's built-ins. */
    default List<Skill> skills() {
        return List.of();
    }

    /** The model the chat uses for sessions on {@code chosen}'s name; {@code chosen} by default. */
    default ChatModel model(ChatModel chosen) {
        return chosen;
    }

    /**
     * The extension the system property names, or one that changes nothing.
     *
     * @throws InvalidInputException when the class cannot be loaded or made
     */
    static ChatExtension fromSystemProperty() {
        String name = System.getProperty(PROPERTY);
        if (name == null || name.isBlank()) {
            return new ChatExtension() { };
        }
        try {
            return (ChatExtension) Class.forName(name.strip()).getConstructor().newInstance();
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new InvalidInputException(PROPERTY, "'" + name + "' is not a ChatExtension with a public"
                    + " no-argument constructor (" + e + ")");
        }
    }
}
