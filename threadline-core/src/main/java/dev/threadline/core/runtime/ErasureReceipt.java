package dev.threadline.core.runtime;

import dev.threadline.core.error.Require;
import java.time.Instant;
import java.util.List;

/**
 * The record of one erasure: what went, when and by whom, and none of what was erased. Ids are kept
 * only as hashes ({@link DataLifecycle#hash}): whoever knows an id can check that it was erased, nobody
 * can read one back. Kept by the runtime (see {@link DataLifecycle#receipts}) and printed as JSON by the
 * CLI. Immutable.
 *
 * @param id              the receipt's own id
 * @param tenant          the tenant erased from
 * @param kind            what the subject was
 * @param subjectHash     the hash of the subject's id (the user or session id; the tenant for a tenant)
 * @param at              when the erasure ended, by the runtime's clock
 * @param by              who asked for it
 * @param sessions        sessions removed (branches included)
 * @param sessionHashes   the hashes of the removed sessions' ids, sorted
 * @param userVariables   user-scope variables removed
 * @param appVariables    app-scope variables removed (a tenant's erasure only)
 * @param scrub           what the store did so the removed bytes are gone from its files, in one line
 * @param complete        false when the erasure stopped midway (then {@code failure} says why; what is
 *                        listed is gone, and running it again removes the rest)
 * @param failure         why it stopped, or null
 */
public record ErasureReceipt(String id, String tenant, DataSubject.Kind kind, String subjectHash, Instant at, String by,
                             int sessions, List<String> sessionHashes, int userVariables, int appVariables, String scrub,
                             boolean complete, String failure) {
    /** @throws dev.threadline.core.error.InvalidInputException when a field is missing */
    public ErasureReceipt {
        Require.nonBlank(id, "id");
        Require.nonBlank(tenant, "tenant");
        Require.nonNull(kind, "kind");
        Require.nonBlank(subjectHash, "subjectHash");
        Require.nonNull(at, "at");
        Require.nonBlank(by, "by");
        sessionHashes = List.copyOf(Require.nonNull(sessionHashes, "sessionHashes"));
        Require.nonNull(scrub, "scrub");
    }
}
