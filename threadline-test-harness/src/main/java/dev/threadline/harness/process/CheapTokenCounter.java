package dev.threadline.harness.process;

import dev.threadline.core.llm.TokenCounter;
import dev.threadline.core.llm.ToolSpec;
import dev.threadline.core.model.ContentBlock;
import dev.threadline.core.model.Message;
import java.util.List;

/**
 * A rough token count (four characters a token) for the children of the multi-process tests: loading
 * the default tokenizer's vocabulary costs more than a second of every child start, and the tests kill
 * and restart children fifty times; what the count is does not matter to them. Stateless: safe from any thread.
 */
public final class CheapTokenCounter implements TokenCounter {
    @Override
    public String name() {
        return "chars/4 (multi-process tests)";
    }

    @Override
    public long count(String text) {
        return text == null ? 0 : text.length() / 4 + 1;
    }

    @Override
    public long count(Message message) {
        long n = 4;
        for (ContentBlock b : message.content()) {
            n += b.toString().length() / 4 + 1;
        }
        return n;
    }

    @Override
    public long count(String system, List<ToolSpec> tools, List<Message> messages) {
        long n = count(system) + 50L * tools.size();
        for (Message m : messages) {
            n += count(m);
        }
        return n;
    }
}
