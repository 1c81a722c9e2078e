package dev.threadline.core.state;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.error.Require;
import dev.threadline.core.model.Message;

/**
 * One typed change a person (an operator, a reviewer, an application) makes to a session between
 * turns: the seeds' {@code update_state}. Edits are recorded together as one {@code StateEdited}
 * step, which the reducer checks as a whole: an edit that would break an invariant is refused with
 * the reason and nothing is written. There is no edit of the status, of pending calls or of past
 * messages: to change the past, rewind to a checkpoint and edit the new branch. Of the session's
 * config, only the model (and its base URL) is edited ({@link SetModel}). Immutable values.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "kind")
@JsonSubTypes({
    @JsonSubTypes.Type(value = Edit.SetVariable.class, name = "set_variable"),
    @JsonSubTypes.Type(value = Edit.RemoveVariable.class, name = "remove_variable"),
    @JsonSubTypes.Type(value = Edit.AppendMessage.class, name = "append_message"),
    @JsonSubTypes.Type(value = Edit.SetModel.class, name = "set_model")
})
public sealed interface Edit {

    /**
     * Puts a variable in a journalled scope (session, user or app; temp variables live only inside a turn).
     * Refused with an {@link dev.threadline.core.error.InvalidInputException} when the name is blank or the value null.
     */
    record SetVariable(VariableScope scope, String name, JsonNode value) implements Edit {
        public SetVariable {
            Require.nonNull(scope, "scope");
            Require.nonBlank(name, "name");
            Require.nonNull(value, "value");
        }
    }

    /**
     * Deletes a variable of a journalled scope (removing an absent one is allowed and changes nothing).
     * Refused with an {@link dev.threadline.core.error.InvalidInputException} when the name is blank.
     */
    record RemoveVariable(VariableScope scope, String name) implements Edit {
        public RemoveVariable {
            Require.nonNull(scope, "scope");
            Require.nonBlank(name, "name");
        }
    }

    /**
     * Appends a message to the transcript: a user, system or assistant message without tool_use
     * (a tool message, or a tool_use no turn would answer, is refused by the reducer).
     * Refused with an {@link dev.threadline.core.error.InvalidInputException} when the message is null.
     */
    record AppendMessage(Message message) implements Edit {
        public AppendMessage {
            Require.nonNull(message, "message");
        }
    }

    /**
     * Runs the session's turns from now on with model spec {@code model} (as {@code SessionConfig.model}, resolved by
     * the runtime's {@code ModelResolver}) at API root {@code baseUrl}, or at the resolver's default when it is null.
     * The config the session was created with stays in its description; {@code SessionConfig.withModelChange} applies the
     * latest such edit, so a rewind or fork to a checkpoint before it runs on the earlier model again. The
     * base URL decides where the runtime sends the transcript: take it from the operator, never from a
     * tenant's request. Refused with an {@link dev.threadline.core.error.InvalidInputException} when the
     * model is blank or the base URL is not an http(s) URL with a host.
     */
    record SetModel(String model, String baseUrl) implements Edit {
        public SetModel {
            model = Require.nonBlank(model, "model").strip();
            baseUrl = Require.httpUrl(baseUrl, "baseUrl");
        }
    }

    /** Sets a session variable. */
    static Edit set(String name, JsonNode value) {
        return new SetVariable(VariableScope.SESSION, name, value);
    }

    /** Removes a session variable. */
    static Edit remove(String name) {
        return new RemoveVariable(VariableScope.SESSION, name);
    }

    /** Sets the session's model (at the resolver's default base URL when {@code baseUrl} is null). */
    static Edit setModel(String model, String baseUrl) {
        return new SetModel(model, baseUrl);
    }

    /** Appends a message. */
    static Edit append(Message message) {
        return new AppendMessage(message);
    }
}
