package dev.threadline.cli;

import dev.threadline.core.error.InvalidInputException;
import dev.threadline.core.context.ContextPolicy;
import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ModelException;
import dev.threadline.core.llm.ModelResolver;
import dev.threadline.core.session.SessionConfig;
import dev.threadline.core.Threadline;
import dev.threadline.core.skill.Skill;
import dev.threadline.core.skill.builtin.Builtins;
import dev.threadline.models.Models;
import dev.threadline.models.http.HttpSettings;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code threadline chat}: a REPL on one session; scripted when stdin is not a terminal. The model
 * comes from {@code --model} (see {@link Models#fromSpec}), keys from the environment.
 */
@Command(name = "chat", mixinStandardHelpOptions = true,
        description = {"Chat with an agent whose every step is journalled.",
                "Reads one line per input when stdin is not a terminal, so it can be scripted."})
final class ChatCommand implements Callable<Integer> {
    @Mixin
    StoreOptions store;

    @Mixin
    TenantOption tenant;

    @Option(names = "--session", paramLabel = "ID", description = "open this session, or create it (default: a new one)")
    String sessionId;

    @Option(names = "--model", paramLabel = "SPEC",
            description = {"anthropic:MODEL, openai:MODEL or scripted (the offline demo).",
                    "Default: anthropic:" + Models.DEFAULT_ANTHROPIC_MODEL + " when ANTHROPIC_API_KEY is set, else openai:"
                            + Models.DEFAULT_OPENAI_MODEL + " when OPENAI_API_KEY is set, else scripted."})
    String model;

    @Option(names = "--base-url", paramLabel = "URL",
            description = {"API root of the model's server,", "e.g. http://127.0.0.1:11434/v1 for Ollama with openai:MODEL",
                    "(default: $ANTHROPIC_BASE_URL / $OPENAI_BASE_URL, else the provider's own). No key is needed for a local server."})
    String baseUrl;

    @Option(names = "--context-window", paramLabel = "TOKENS",
            description = "the model's context window, when the one known for its family is wrong (e.g. a local server's setting)")
    int contextWindow;

    @Option(names = "--context-policy", paramLabel = "SPEC",
            description = {"what the model sees of a new session's transcript: full, window:N (last N messages),",
                    "or auto-compact[:FRACTION] (default; summarises older turns past that fraction of the window).",
                    "An existing session keeps the policy it was created with."})
    String contextPolicy;

    @Option(names = "--recall", paramLabel = "K[:TOKENS]",
            description = {"for a new session: before each model call, bring back the K earlier messages (1-20) that best match",
                    "the latest user message and are no longer in the context, within TOKENS (default 2000) — see context.md"})
    String recall;

    @Option(names = "--prices", paramLabel = "FILE",
            description = {"what the models cost (JSON, per million tokens: {\"openai:*\": {\"input\": 2.5, \"output\": 10}});",
                    "each reply is recorded with its cost and /usage shows the session's"})
    Path prices;

    @Option(names = "--max-output-tokens", paramLabel = "N", description = "output limit of one model call for a new session (default 4096)")
    Integer maxOutputTokens;

    @Option(names = "--workspace", paramLabel = "DIR", description = "folder read_file and list_files may read (default: the current folder)")
    Path workspace;

    @Option(names = "--stream", description = {"print each reply as it arrives even when stdin is not a terminal",
            "(a terminal always streams; piped runs otherwise print whole messages)"})
    boolean stream;

    @Option(names = "--mcp", paramLabel = "NAME=COMMAND", description = {
            "an MCP server whose tools the agent may call, as skills named NAME_TOOL: NAME=command args… (a process",
            "over stdio, e.g. 'fs=npx @modelcontextprotocol/server-filesystem /tmp') or NAME=http://…/mcp (streamable HTTP).",
            "Repeatable."})
    List<String> mcp = new ArrayList<>();

    @Option(names = "--require-approval", paramLabel = "TOOL", description = {
            "calls of this tool wait for your approval at the prompt (y / n REASON / e JSON), for a new session;",
            "e.g. calculate. Repeatable."})
    List<String> requireApproval = new ArrayList<>();

    @Spec
    CommandSpec spec;

    @ParentCommand
    Main main;

    @Override
    public Integer call() throws Exception {
        String tenantId = tenant.id(spec); // before anything is opened: a bad id changes nothing
        Map<String, String> env = System.getenv();
        String chosen = model != null ? model : Models.defaultSpec(env);
        ChatModel chatModel;
        ModelException noKey = null;
        try {
            chatModel = Models.fromSpec(chosen, baseUrl, env, contextWindow, HttpSettings.defaults());
        } catch (InvalidInputException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        } catch (ModelException e) {
            if (model == null || baseUrl != null || sessionId == null) {
                throw e;
            }
            noKey = e; // the session named may keep a base URL for this model, where no key is needed: decided once it is open
            chatModel = null;
        }
        ChatExtension extension;
        try {
            extension = ChatExtension.fromSystemProperty();
        } catch (InvalidInputException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        ChatModel chosenModel = chatModel == null ? null : extension.model(chatModel);
        ModelResolver resolver = Models.resolver(baseUrl, env, contextWindow, HttpSettings.defaults());
        SessionConfig config;
        try { // the base URL is kept with the session, so a later chat without --base-url reaches the same server
            config = SessionConfig.DEFAULT.withModel(chatModel != null ? chatModel.name() : Models.spec(chosen),
                    chosen.strip().equals(Models.SCRIPTED) ? null : baseUrl);
        } catch (InvalidInputException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        try {
            if (contextPolicy != null) {
                config = config.withContextPolicy(ContextPolicy.parse(contextPolicy));
            }
            if (maxOutputTokens != null) {
                config = config.withMaxOutputTokens(maxOutputTokens);
            }
            if (recall != null) {
                config = config.withRecall(RecallSpec.parse(recall));
            }
        } catch (InvalidInputException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        Path ws = (workspace != null ? workspace : Path.of("")).toAbsolutePath().normalize();
        List<Skill> skills;
        try {
            skills = Builtins.all(ws); // before the store, so a bad --workspace leaves no new database behind
        } catch (InvalidInputException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        if (!requireApproval.isEmpty()) {
            ApprovalTools.check(spec, requireApproval, skills, extension.skills(), mcp);
            config = config.withRequireApproval(requireApproval);
        }
        dev.threadline.core.llm.PriceTable priceTable = PricesFile.read(prices, spec);
        PrintWriter out = spec.commandLine().getOut();
        String chosenName = config.model();
        ModelResolver extended = spec -> spec.equals(chosenName) ? Optional.of(chosenModel) : Optional.empty();
        try (McpServers servers = McpServers.start(mcp, spec.commandLine());
             Threadline tl = Threadline.builder()
                .models(chosenModel == chatModel ? resolver // no extension: as shipped
                        : extended.orElse(resolver))
                .skills(skills).skill(Builtins.askUser()) // the prompt answers ask_user
                .skills(extension.skills()).skills(servers.skills())
                .prices(priceTable).store(store.openForChat(out)).build();
             LineInput input = LineInput.open(main.in)) {
            servers.describe(out);
            Repl repl = new Repl(tl, tl.tenant(tenantId), out, spec.commandLine().getErr(), input, config, store.shown(), stream)
                    .modelChosen(model != null, noKey);
            return repl.run(sessionId);
        }
    }
}
