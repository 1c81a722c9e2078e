package dev.threadline.core.error;

/** The storage backend failed (I/O, corrupt row, lost connection). The operation was not applied. */
public final class StorageException extends ThreadlineException {
    /** A backend failure described by {@code message}, caused by {@code cause}. */
    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }

    /** A backend failure described by {@code message} (a corrupt row, a refused invariant). */
    public StorageException(String message) {
        super(message);
    }
}
