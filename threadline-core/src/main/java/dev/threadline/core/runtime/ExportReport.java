package dev.threadline.core.runtime;

/**
 * What an export of a tenant's sessions ({@link dev.threadline.core.SessionArchive#export}) wrote. Immutable.
 *
 * @param tenant   the tenant exported
 * @param sessions sessions written, each with its lines and a checksum
 * @param events   journal events written (each session's own)
 * @param lines    lines written in all
 */
public record ExportReport(String tenant, int sessions, long events, long lines) {
}
