package dev.threadline.core.llm;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import dev.threadline.core.error.Require;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import dev.threadline.core.state.ModelTranscript;
import java.util.List;

/**
 * A local {@link TokenCounter} on jtokkit's byte-pair encodings (OpenAI's tiktoken vocabularies,
 * bundled in the jar, nothing is downloaded). {@code o200k_base} is exact for GPT-4o and later,
 * {@code cl100k_base} for GPT-4 and GPT-3.5; for other model families either is an approximation.
 *
 * <p>Framing follows OpenAI's published accounting (a few tokens per message and per request); tool
 * calls count their name, id and JSON input, results their id and content. An image reference counts
 * {@value #IMAGE_TOKENS} tokens, about what a 1-megapixel image costs at Anthropic and OpenAI: the
 * bytes are not in the transcript, so its size is unknown. Special-token text such as
 * {@code <|endoftext|>} in user input is counted as ordinary text, never refused. A message is counted
 * each time it is asked for; a context policy's view ({@link ModelTranscript.View}) is counted from the
 * running totals its transcript keeps, each message counted once when it first appears, so measuring
 * a growing transcript at every model call costs only its new messages (issue 39: no cache keyed by
 * the messages' deep equality, no lock shared by the sessions). Thread-safe: one instance serves every session.
 */
public final class JtokkitTokenCounter implements TokenCounter {
    /** Tokens every message adds for its role and separators. */
    public static final int PER_MESSAGE = 4;
    /** Tokens every request adds (the reply's priming). */
    public static final int PER_REQUEST = 3;
    /** Tokens one tool definition, tool call or tool result adds around its own text. */
    public static final int PER_TOOL_BLOCK = 8;
    /** The estimate for one image reference. */
    public static final int IMAGE_TOKENS = 1_600;

    private static final EncodingRegistry REGISTRY = Encodings.newLazyEncodingRegistry();
    static final JtokkitTokenCounter O200K = new JtokkitTokenCounter(EncodingType.O200K_BASE);

    private final Encoding encoding;
    private final String name;

    private JtokkitTokenCounter(EncodingType type) {
        this.encoding = REGISTRY.getEncoding(type);
        this.name = type.getName() + " (jtokkit, approximate for non-OpenAI models)";
    }

    /** {@code o200k_base} or {@code cl100k_base} (any name jtokkit knows). */
    public static JtokkitTokenCounter of(String encodingName) {
        Require.nonBlank(encodingName, "encoding");
        EncodingType type = EncodingType.fromName(encodingName).orElseThrow(() -> new dev.threadline.core.error.InvalidInputException(
                "encoding", "'" + encodingName + "' is not a jtokkit encoding; use o200k_base or cl100k_base"));
        return type == EncodingType.O200K_BASE ? O200K : new JtokkitTokenCounter(type);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long count(String text) {
        return text == null || text.isEmpty() ? 0 : encoding.countTokensOrdinary(text);
    }

    @Override
    public long count(Message message) {
        long n = PER_MESSAGE;
        for (ContentBlock b : message.content()) {
            n += switch (b) {
                case ContentBlock.Text t -> count(t.text());
                case ContentBlock.ToolUse u -> PER_TOOL_BLOCK + count(u.id()) + count(u.name()) + count(u.input().toString());
                case ContentBlock.ToolResult r -> PER_TOOL_BLOCK + count(r.toolUseId()) + count(r.content());
                case ContentBlock.Thinking t -> count(t.thinking());
                case ContentBlock.ImageRef i -> IMAGE_TOKENS;
            };
        }
        return n;
    }

    /** The system prompt and tools last counted, with their tokens: they rarely change from one request to the next. */
    private record Fixed(String system, List<ToolSpec> tools, long tokens) {
    }

    /** The latest {@link Fixed}; read and replaced whole (no lock: a race costs one count more). */
    private volatile Fixed fixed;

    @Override
    public long count(String system, List<ToolSpec> tools, List<Message> messages) {
        String sys = system == null ? "" : system;
        Fixed known = fixed;
        if (known == null || !known.system().equals(sys) || !known.tools().equals(tools)) {
            long n = PER_REQUEST;
            if (!sys.isEmpty()) {
                n += PER_MESSAGE + count(sys);
            }
            for (ToolSpec t : tools) {
                n += PER_TOOL_BLOCK + count(t.name()) + count(t.description())
                        + (t.inputSchema() == null ? 0 : count(t.inputSchema().toString()));
            }
            known = new Fixed(sys, List.copyOf(tools), n);
            fixed = known;
        }
        long n = known.tokens();
        if (messages instanceof ModelTranscript.View view) {
            return n + view.tokens(this, this::count);
        }
        for (Message m : messages) {
            n += count(m);
        }
        return n;
    }

    @Override
    public String toString() {
        return name;
    }
}
