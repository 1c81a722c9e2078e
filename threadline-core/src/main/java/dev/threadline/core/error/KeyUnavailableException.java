package dev.threadline.core.error;

/**
 * A payload could not be sealed or opened because its key is missing, wrong or destroyed: the
 * key-encryption key is not in the key provider, or the data does not open under the key it names. Nothing
 * was written. Names the tenant and the key id; the message says where the key was looked for.
 */
public final class KeyUnavailableException extends ThreadlineException {
    private final String tenant;
    private final String keyId;

    /**
     * A missing or wrong key.
     *
     * @param tenant the tenant whose key it is
     * @param keyId  the key's id ({@code -} when the tenant has no key at all)
     * @param why    what was wrong and where the key was looked for, as a person reads it
     */
    public KeyUnavailableException(String tenant, String keyId, String why) {
        super("the key '" + keyId + "' of tenant '" + tenant + "' is unavailable: " + why);
        this.tenant = tenant;
        this.keyId = keyId;
    }

    /** The tenant whose key it is. */
    public String tenant() {
        return tenant;
    }

    /** The key's id, {@code -} when the tenant has none. */
    public String keyId() {
        return keyId;
    }
}
