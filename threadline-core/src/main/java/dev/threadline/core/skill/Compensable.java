package dev.threadline.core.skill;

/**
 * A {@link Effect#SIDE_EFFECT} skill that can undo one of its earlier calls (refund a payment, recall a
 * message). {@code Session.compensate(seq)} runs the compensations of the calls after a checkpoint,
 * newest first, each once, and records each outcome in the journal. Implementations are stateless and
 * thread-safe like any skill.
 */
public interface Compensable {

    /**
     * Undoes the call {@code context} names: its {@code toolUseId} and {@code arguments} are the original
     * call's; {@code result} is the result it recorded. Use {@code context.idempotencyKey() + "/undo"} as
     * the key towards the system being changed. An exception or an error result records the
     * compensation as failed, and the effect stays in the ledger.
     *
     * @throws Exception any failure, recorded as a failed compensation (the effect stays in the ledger)
     */
    SkillResult compensate(ExecutionContext context, String result) throws Exception;
}
