package dev.threadline.core.runtime;

import dev.threadline.core.model.Usage;

/**
 * What an on-demand compaction ({@link Session#compact()}) did.
 *
 * @param compacted    false when there was nothing new to summarise (then nothing was recorded)
 * @param summarised   transcript messages the new summary covers (the journal keeps them all)
 * @param tokensBefore the request's input tokens before
 * @param tokensAfter  the request's input tokens after
 * @param usage        what the summary call cost (added to the session's usage)
 */
public record CompactionResult(boolean compacted, int summarised, long tokensBefore, long tokensAfter, Usage usage) {
}
