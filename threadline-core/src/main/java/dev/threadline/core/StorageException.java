package dev.threadline.core;

/** The storage backend failed (I/O, corrupt row, lost connection). The operation was not applied. */
public final class StorageException extends ThreadlineException {
    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }

    public StorageException(String message) {
        super(message);
    }
}
