package dev.threadline.server;

import dev.threadline.core.llm.ModelResolver;
import dev.threadline.core.skill.Skill;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How a {@link ThreadlineServer} runs. Immutable; change it with the {@code with...} methods.
 *
 * @param db            the SQLite file of the sessions (created when missing); the keys live beside it
 * @param host          the address to bind (default {@code 127.0.0.1}: loopback only)
 * @param port          the port, or 0 for a free one (the bound URL is {@link ThreadlineServer#url()})
 * @param limits        what one request may carry
 * @param workspace     the folder {@code read_file} and {@code list_files} may read, or null to leave those
 *                      skills out (a server's callers are remote, so files are opt-in)
 * @param shutdownGrace how long closing lets running turns finish before interrupting them
 * @param heartbeat     how often an idle SSE stream sends a comment line (which also detects gone clients)
 * @param leaseWait     how long a command waits for a session another node is running
 * @param models        the models sessions run on, or null for those of the environment (as {@code threadline chat}
 *                      resolves them: {@code scripted}, Anthropic and OpenAI models when their keys are set)
 * @param skills        skills served beside the built-in ones ({@code calculate}, {@code meeting_minutes},
 *                      {@code ask_user}, and the file skills with a workspace); empty for none
 */
public record ServerConfig(Path db, String host, int port, Limits limits, Path workspace, Duration shutdownGrace,
                           Duration heartbeat, Duration leaseWait, ModelResolver models, List<Skill> skills) {

    public ServerConfig {
        Objects.requireNonNull(db, "db");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(shutdownGrace, "shutdownGrace");
        Objects.requireNonNull(heartbeat, "heartbeat");
        Objects.requireNonNull(leaseWait, "leaseWait");
        skills = skills == null ? List.of() : List.copyOf(skills);
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0-65535, was " + port);
        }
    }

    /** Loopback, port 8080, default limits, no file skills, 10 s grace, 15 s heartbeats, 30 s lease wait. */
    public static ServerConfig of(Path db) {
        return new ServerConfig(db, "127.0.0.1", 8080, Limits.DEFAULT, null, Duration.ofSeconds(10), Duration.ofSeconds(15),
                Duration.ofSeconds(30), null, List.of());
    }

    public ServerConfig withHost(String host) {
        return new ServerConfig(db, host, port, limits, workspace, shutdownGrace, heartbeat, leaseWait, models, skills);
    }

    public ServerConfig withPort(int port) {
        return new ServerConfig(db, host, port, limits, workspace, shutdownGrace, heartbeat, leaseWait, models, skills);
    }

    public ServerConfig withLimits(Limits limits) {
        return new ServerConfig(db, host, port, limits, workspace, shutdownGrace, heartbeat, leaseWait, models, skills);
    }

    public ServerConfig withWorkspace(Path workspace) {
        return new ServerConfig(db, host, port, limits, workspace, shutdownGrace, heartbeat, leaseWait, models, skills);
    }

    public ServerConfig withShutdownGrace(Duration grace) {
        return new ServerConfig(db, host, port, limits, workspace, grace, heartbeat, leaseWait, models, skills);
    }

    public ServerConfig withLeaseWait(Duration wait) {
        return new ServerConfig(db, host, port, limits, workspace, shutdownGrace, heartbeat, wait, models, skills);
    }

    public ServerConfig withModels(ModelResolver models) {
        return new ServerConfig(db, host, port, limits, workspace, shutdownGrace, heartbeat, leaseWait, models, skills);
    }

    public ServerConfig withSkills(List<Skill> skills) {
        return new ServerConfig(db, host, port, limits, workspace, shutdownGrace, heartbeat, leaseWait, models, skills);
    }

    public ServerConfig withHeartbeat(Duration heartbeat) {
        return new ServerConfig(db, host, port, limits, workspace, shutdownGrace, heartbeat, leaseWait, models, skills);
    }
}
