package dev.threadline.mcp;

import dev.threadline.core.fault.CrashPoint;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.threadline.core.json.Json;
import dev.threadline.core.skill.Effect;
import dev.threadline.core.skill.ExecutionContext;
import dev.threadline.core.skill.Skill;
import dev.threadline.core.skill.SkillPolicy;
import dev.threadline.core.skill.SkillResult;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * One tool of an MCP server as a skill named {@code <server>_<tool>} (characters a skill name cannot hold
 * become {@code _}, cut to 64), with the tool's description and input schema (its {@code $schema} left
 * out: Threadline reads every skill schema as draft 2020-12). Thread-safe and stateless, as skills are.
 */
final class McpToolSkill implements Skill {
    private final String server;
    private final McpSchema.Tool tool;
    private final McpAsyncClient client;
    private final String name;
    private final JsonNode schema;
    private final Mono<Void> gone;

    McpToolSkill(String server, McpSchema.Tool tool, McpAsyncClient client, Mono<Void> gone) {
        this.gone = gone;
        this.server = server;
        this.tool = tool;
        this.client = client;
        String n = (server + "_" + tool.name()).replaceAll("[^a-zA-Z0-9_-]", "_");
        this.name = n.length() > 64 ? n.substring(0, 64) : n;
        ObjectNode s = tool.inputSchema() == null ? Json.object() : (ObjectNode) Json.tree(tool.inputSchema()).deepCopy();
        s.remove("$schema");
        if (!s.has("type")) {
            s.put("type", "object");
        }
        this.schema = s;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        String d = tool.description();
        return d == null || d.isBlank() ? "Tool '" + tool.name() + "' of MCP server '" + server + "'" : d;
    }

    @Override
    public JsonNode inputSchema() {
        return schema;
    }

    /**
     * The effect the tool's annotations declare, read as MCP defines their defaults: {@code readOnlyHint}
     * gives {@code read_only}; {@code destructiveHint: false} with {@code idempotentHint: true} gives
     * {@code idempotent}; anything else {@code side_effect} (a tool that says nothing may be destructive;
     * a rewind past its call then needs acknowledging). Calls run without approval.
     */
    @Override
    public SkillPolicy policy() {
        McpSchema.ToolAnnotations a = tool.annotations();
        Effect effect = Effect.SIDE_EFFECT;
        if (a != null && Boolean.TRUE.equals(a.readOnlyHint())) {
            effect = Effect.READ_ONLY;
        } else if (a != null && Boolean.FALSE.equals(a.destructiveHint()) && Boolean.TRUE.equals(a.idempotentHint())) {
            effect = Effect.IDEMPOTENT;
        }
        return SkillPolicy.DEFAULT.withEffect(effect);
    }

    /** Calls the tool, bounded by the call's deadline; every failure is an error result. */
    @Override
    public SkillResult execute(ExecutionContext context) {
        Duration left = Duration.between(Instant.now(), context.deadline());
        if (left.isNegative() || left.isZero()) {
            return SkillResult.error("error: no time left to call tool '" + tool.name() + "' of MCP server '" + server + "'");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> args = Json.mapper().convertValue(context.arguments(), Map.class);
        try {
            McpSchema.CallToolResult result = Calls.unlessGone(
                    client.callTool(new McpSchema.CallToolRequest(tool.name(), args)), gone, server).timeout(left).block();
            CrashPoint.MCP_DURING_CALL.reach();
            if (result == null) {
                return SkillResult.error("error: MCP server '" + server + "' returned no result for tool '" + tool.name() + "'");
            }
            String text = Results.text(result);
            return Boolean.TRUE.equals(result.isError()) ? SkillResult.error(text) : SkillResult.ok(text);
        } catch (RuntimeException e) {
            if (Calls.timedOut(e)) {
                return SkillResult.error("error: MCP server '" + server + "' did not answer tool '" + tool.name()
                        + "' within " + left.toMillis() + " ms");
            }
            return SkillResult.error("error: MCP server '" + server + "' failed on tool '" + tool.name() + "': "
                    + Calls.reason(e));
        }
    }
}
