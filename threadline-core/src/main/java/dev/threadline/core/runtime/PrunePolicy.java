package dev.threadline.core.runtime;

import dev.threadline.core.error.Require;
import java.time.Duration;

/**
 * How much of a session's history pruning keeps (issue 24, ADR 0045): its latest {@code keepCheckpoints}
 * checkpoints, or the checkpoints of its last {@code keepFor}. Older history is folded into a base the
 * session loads from; a read of a pruned checkpoint is a {@link dev.threadline.core.error.HistoryPrunedException}.
 * Exactly one of the two is set. Immutable.
 *
 * @param keepCheckpoints how many of the latest checkpoints (steps) to keep, at least 1; or 0 when {@code keepFor} is set
 * @param keepFor         how far back to keep checkpoints, at least one second; or null when {@code keepCheckpoints} is set
 */
public record PrunePolicy(int keepCheckpoints, Duration keepFor) {
    /** @throws dev.threadline.core.error.InvalidInputException when neither or both are set, or one is out of range */
    public PrunePolicy {
        if (keepFor == null) {
            Require.argument(keepCheckpoints >= 1, "keep", "must be at least 1 checkpoint, was " + keepCheckpoints);
        } else {
            Require.argument(keepCheckpoints == 0, "keep", "give either a number of checkpoints or a duration, not both");
            Require.argument(keepFor.compareTo(Duration.ofSeconds(1)) >= 0, "days", "must be positive, was " + keepFor);
        }
    }

    /**
     * The session metadata key that gives a session a policy of its own, over its tenant's: {@code "100"} keeps
     * its latest 100 checkpoints, {@code "30d"} those of its last 30 days. Forks and rewinds inherit it with the
     * rest of the metadata.
     */
    public static final String METADATA_KEY = "threadline.keep";

    /**
     * The policy {@code text} names: {@code "N"} keeps the latest N checkpoints, {@code "Dd"} the last D days.
     *
     * @throws dev.threadline.core.error.InvalidInputException naming {@link #METADATA_KEY} when it is neither
     */
    public static PrunePolicy parse(String text) {
        Require.nonBlank(text, METADATA_KEY);
        String t = text.strip();
        try {
            return t.endsWith("d") ? keepDays(Integer.parseInt(t.substring(0, t.length() - 1))) : keepLatest(Integer.parseInt(t));
        } catch (NumberFormatException e) {
            throw new dev.threadline.core.error.InvalidInputException(METADATA_KEY, "'" + t + "' is neither a number of checkpoints"
                    + " (\"100\") nor of days (\"30d\")");
        }
    }

    /** Keep the latest {@code n} checkpoints. @throws dev.threadline.core.error.InvalidInputException when {@code n < 1} */
    public static PrunePolicy keepLatest(int n) {
        return new PrunePolicy(n, null);
    }

    /** Keep the checkpoints of the last {@code days} days. @throws dev.threadline.core.error.InvalidInputException when {@code days < 1} */
    public static PrunePolicy keepDays(int days) {
        Require.argument(days >= 1, "days", "must be at least 1, was " + days);
        return new PrunePolicy(0, Duration.ofDays(days));
    }

    /** The policy as errors and results name it ("keep the latest 100 checkpoints"). */
    public String describe() {
        if (keepFor == null) {
            return "keep the latest " + keepCheckpoints + " checkpoint" + (keepCheckpoints == 1 ? "" : "s");
        }
        return keepFor.toSeconds() % 86_400 == 0 ? "keep " + keepFor.toDays() + " days" : "keep " + keepFor;
    }
}
