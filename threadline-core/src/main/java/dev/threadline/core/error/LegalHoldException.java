package dev.threadline.core.error;

/**
 * An erasure (or another removal) was refused because a legal hold covers its subject. Nothing was
 * changed. Lift the hold first, if the law allows it.
 */
public final class LegalHoldException extends ThreadlineException {
    private final String hold;

    /**
     * A refusal of {@code what} because of {@code hold}.
     *
     * @param what what was refused, as a person reads it ("erasing user 'u1' of tenant 'acme'")
     * @param hold the hold, as a person reads it (its subject, reason, when and by whom it was placed)
     */
    public LegalHoldException(String what, String hold) {
        super(what + " was refused: " + hold + ". Nothing was changed; lift the hold first");
        this.hold = hold;
    }

    /** The hold that refused it, as a person reads it. */
    public String hold() {
        return hold;
    }
}
