package dev.threadline.core.error;

/**
 * An import file that is damaged (a changed byte, a cut-off end, lines out of order): refused, naming the
 * line, before anything of it was written. Immutable.
 */
public final class DamagedArchiveException extends ThreadlineException {
    private final long line;

    /** A refusal of the file at {@code line} (counted from 1) for {@code reason}. */
    public DamagedArchiveException(long line, String reason) {
        super("line " + line + ": " + reason + "; the file is damaged, nothing was imported");
        this.line = line;
    }

    /** The line at fault, counted from 1. */
    public long line() {
        return line;
    }
}
