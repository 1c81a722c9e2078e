package dev.threadline.models.internal;

import java.util.List;
import java.util.Locale;

/**
 * The context window, in tokens, of known model families, by name prefix (longest match wins).
 * Builders and {@code --context-window} override it; an unknown model gets a cautious default:
 * Claude models share 200k, and an unknown OpenAI-compatible model (often a local one, whose server
 * may well be configured with a small window) gets 8,192. Stateless: safe from any thread.
 */
public final class ContextWindows {
    /** Anthropic models without a more specific entry. */
    public static final int ANTHROPIC_DEFAULT = 200_000;
    /** OpenAI-compatible models without an entry: small on purpose, local servers often run with small windows. */
    public static final int OPENAI_COMPATIBLE_DEFAULT = 8_192;

    private record Family(String prefix, int tokens) {
    }

    private static final List<Family> OPENAI = List.of(
            new Family("gpt-5", 400_000),
            new Family("gpt-4.1", 1_047_576),
            new Family("gpt-4o", 128_000),
            new Family("gpt-4-turbo", 128_000),
            new Family("gpt-4", 8_192),
            new Family("gpt-3.5-turbo", 16_385),
            new Family("o1", 200_000),
            new Family("o3", 200_000),
            new Family("o4", 200_000),
            new Family("llama3.1", 131_072),
            new Family("llama3.2", 131_072),
            new Family("llama3.3", 131_072),
            new Family("llama3", 8_192),
            new Family("qwen3", 40_960),
            new Family("qwen2.5", 32_768),
            new Family("mistral-nemo", 131_072),
            new Family("mistral", 32_768),
            new Family("gemma3", 131_072),
            new Family("gemma2", 8_192),
            new Family("phi4", 16_384),
            new Family("deepseek-r1", 131_072));

    private ContextWindows() {}

    /** The window of an Anthropic model: 200k for every current Claude model. */
    public static int anthropic(String model) {
        return ANTHROPIC_DEFAULT;
    }

    /** The window of an OpenAI or OpenAI-compatible model, by family; 8,192 when unknown. */
    public static int openAi(String model) {
        String m = model.toLowerCase(Locale.ROOT);
        int slash = m.lastIndexOf('/');
        String name = slash >= 0 ? m.substring(slash + 1) : m; // "meta-llama/llama3.1" -> "llama3.1"
        Family best = null;
        for (Family f : OPENAI) {
            if (name.startsWith(f.prefix()) && (best == null || f.prefix().length() > best.prefix().length())) {
                best = f;
            }
        }
        return best == null ? OPENAI_COMPATIBLE_DEFAULT : best.tokens();
    }
}
