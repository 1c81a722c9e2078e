package dev.threadline.cli;

import dev.threadline.core.Threadline;
import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.runtime.Tenant;
import dev.threadline.core.session.SessionInfo;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code --tenant ID}: whose sessions a command sees, as an adapter's {@code tenant("acme")} or a
 * server API key names them; by default tenant {@value SessionInfo#DEFAULT_TENANT}. A malformed id is
 * bad usage, refused before the store is opened.
 */
final class TenantOption {
    @Option(names = "--tenant", paramLabel = "ID", description = {"the tenant whose sessions these are (default: "
            + SessionInfo.DEFAULT_TENANT + "),", "e.g. one an adapter's tenant(\"acme\") or a server key writes to"})
    String tenant;

    /** The tenant id, checked; bad usage (exit 2) when it is malformed. */
    String id(CommandSpec spec) {
        if (tenant == null) {
            return SessionInfo.DEFAULT_TENANT;
        }
        try {
            return SessionInfo.checkId(tenant, "--tenant");
        } catch (InvalidInputException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /** The view of the checked tenant in {@code tl}. */
    Tenant of(Threadline tl, CommandSpec spec) {
        return tl.tenant(id(spec));
    }

    /** " of tenant ID" for messages, or "" for the default tenant. */
    String shown(CommandSpec spec) {
        String id = id(spec);
        return id.equals(SessionInfo.DEFAULT_TENANT) ? "" : " of tenant " + id;
    }
}
