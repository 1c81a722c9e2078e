package dev.threadline.core.internal.engine.trace;

import dev.threadline.core.error.Require;
import dev.threadline.core.llm.ChatModel;
import dev.threadline.core.llm.ChatRequest;
import dev.threadline.core.llm.ChatResponse;
import dev.threadline.core.model.Usage;
import dev.threadline.core.store.SessionKey;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * The runtime's spans (docs/operations.md, "Traces"; ADR 0038): a turn ({@code invoke_agent}), a model
 * call ({@code chat}) and a tool call ({@code execute_tool}) with the OpenTelemetry GenAI attributes, and
 * Threadline's own for journal appends, snapshots, compactions, branches and a person's decisions. Every
 * span carries the session id as {@code gen_ai.conversation.id} and its tenant as {@code threadline.tenant};
 * none carries message content, tool arguments or results, or an error's message (they may quote content):
 * only names, ids, counts and outcomes.
 *
 * <p>Off (the {@link OpenTelemetry#noop() no-op} instance, the builder's default) every method returns at
 * once without allocating: the invalid span, the no-op scope, the task as given. Thread-safe.
 */
public final class Tracing {
    /** Tracing off: nothing is started, nothing is propagated. */
    public static final Tracing OFF = new Tracing(OpenTelemetry.noop());

    /** The instrumentation scope's name: the tracer every span of the runtime comes from. */
    public static final String SCOPE = "dev.threadline";

    public static final AttributeKey<String> OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
    public static final AttributeKey<String> PROVIDER = AttributeKey.stringKey("gen_ai.provider.name");
    /** The provider under its earlier name, which most back ends still read. */
    public static final AttributeKey<String> SYSTEM = AttributeKey.stringKey("gen_ai.system");
    public static final AttributeKey<String> REQUEST_MODEL = AttributeKey.stringKey("gen_ai.request.model");
    public static final AttributeKey<Long> MAX_TOKENS = AttributeKey.longKey("gen_ai.request.max_tokens");
    public static final AttributeKey<Long> INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
    public static final AttributeKey<Long> OUTPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.output_tokens");
    public static final AttributeKey<List<String>> FINISH_REASONS = AttributeKey.stringArrayKey("gen_ai.response.finish_reasons");
    public static final AttributeKey<String> CONVERSATION = AttributeKey.stringKey("gen_ai.conversation.id");
    public static final AttributeKey<String> TOOL_NAME = AttributeKey.stringKey("gen_ai.tool.name");
    public static final AttributeKey<String> TOOL_CALL_ID = AttributeKey.stringKey("gen_ai.tool.call.id");
    public static final AttributeKey<String> TOOL_TYPE = AttributeKey.stringKey("gen_ai.tool.type");
    public static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    public static final AttributeKey<String> TENANT = AttributeKey.stringKey("threadline.tenant");
    public static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("threadline.outcome");
    public static final AttributeKey<Long> SEQ = AttributeKey.longKey("threadline.seq");
    public static final AttributeKey<Long> EVENTS = AttributeKey.longKey("threadline.events");
    public static final AttributeKey<String> SOURCE = AttributeKey.stringKey("threadline.checkpoint.source");
    public static final AttributeKey<Long> MODEL_CALLS = AttributeKey.longKey("threadline.turn.model_calls");
    public static final AttributeKey<Long> TOOL_CALLS = AttributeKey.longKey("threadline.turn.tool_calls");

    private final Tracer tracer;
    private final boolean on;

    /** Spans from {@code openTelemetry}'s tracer; {@link OpenTelemetry#noop()} turns tracing off. */
    public Tracing(OpenTelemetry openTelemetry) {
        Require.nonNull(openTelemetry, "openTelemetry");
        this.on = openTelemetry != OpenTelemetry.noop();
        this.tracer = openTelemetry.getTracer(SCOPE);
    }

    /** Whether spans are recorded at all. */
    public boolean on() {
        return on;
    }

    /** A span of the session {@code key}, a child of the current context's; the invalid span when off. */
    public Span start(String name, SpanKind kind, SessionKey key) {
        if (!on) {
            return Span.getInvalid();
        }
        return tracer.spanBuilder(name).setSpanKind(kind).setAttribute(CONVERSATION, key.id())
                .setAttribute(TENANT, key.tenant()).startSpan();
    }

    /** A Threadline span (internal) of the session. */
    public Span start(String name, SessionKey key) {
        return start(name, SpanKind.INTERNAL, key);
    }

    /** The {@code invoke_agent} span of one turn (or of a resumed one: {@code kind} says which). */
    public Span turn(SessionKey key, String kind) {
        Span span = start("invoke_agent", SpanKind.INTERNAL, key);
        if (on) {
            span.setAttribute(OPERATION, "invoke_agent");
            span.setAttribute("threadline.turn.kind", kind);
        }
        return span;
    }

    /** Ends a turn's span with its outcome and what it spent. */
    public static void endTurn(Span span, String outcome, int modelCalls, int toolCalls, Usage usage) {
        if (span.isRecording()) {
            span.setAttribute(OUTCOME, outcome.toLowerCase(Locale.ROOT));
            span.setAttribute(MODEL_CALLS, (long) modelCalls);
            span.setAttribute(TOOL_CALLS, (long) toolCalls);
            span.setAttribute(INPUT_TOKENS, usage.inputTokens());
            span.setAttribute(OUTPUT_TOKENS, usage.outputTokens());
        }
        span.end();
    }

    /**
     * The {@code chat} span of one model call (a client span: the model's HTTP request carries it as its
     * {@code traceparent}): provider and model from the name of the model called ({@code provider:model}).
     */
    public Span chat(SessionKey key, ChatModel model, ChatRequest request) {
        if (!on) {
            return Span.getInvalid();
        }
        String name = model.name();
        int colon = name.indexOf(':');
        String provider = colon < 0 ? name : name.substring(0, colon);
        String requested = colon < 0 ? name : name.substring(colon + 1); // the model called, not the session's spec
        return tracer.spanBuilder("chat " + requested).setSpanKind(SpanKind.CLIENT)
                .setAttribute(OPERATION, "chat").setAttribute(PROVIDER, provider).setAttribute(SYSTEM, provider)
                .setAttribute(REQUEST_MODEL, requested).setAttribute(MAX_TOKENS, (long) request.maxTokens())
                .setAttribute(CONVERSATION, key.id()).setAttribute(TENANT, key.tenant()).startSpan();
    }

    /** Records a model call's answer on its span: token usage and the finish reason. */
    public static void answered(Span span, ChatResponse response) {
        if (span.isRecording()) {
            span.setAttribute(INPUT_TOKENS, response.usage().inputTokens());
            span.setAttribute(OUTPUT_TOKENS, response.usage().outputTokens());
            if (response.stopReason() != null) {
                span.setAttribute(FINISH_REASONS, List.of(response.stopReason().name().toLowerCase(Locale.ROOT)));
            }
        }
    }

    /** The {@code execute_tool} span of one tool call. */
    public Span tool(SessionKey key, String toolName, String toolUseId) {
        Span span = start("execute_tool " + toolName, SpanKind.INTERNAL, key);
        if (on) {
            span.setAttribute(OPERATION, "execute_tool");
            span.setAttribute(TOOL_NAME, toolName);
            span.setAttribute(TOOL_CALL_ID, toolUseId);
            span.setAttribute(TOOL_TYPE, "function");
        }
        return span;
    }

    /**
     * Marks a span failed: its status and {@code error.type} name the exception's class only, never its
     * message (a provider's error may quote the request).
     */
    public static void failed(Span span, Throwable e) {
        if (span.isRecording()) {
            span.setStatus(StatusCode.ERROR, e.getClass().getSimpleName());
            span.setAttribute(ERROR_TYPE, e.getClass().getName());
        }
    }

    /** Marks a span failed with an outcome of Threadline's own (a tool call that failed or timed out). */
    public static void failed(Span span, String outcome) {
        if (span.isRecording()) {
            span.setStatus(StatusCode.ERROR, outcome);
            span.setAttribute(ERROR_TYPE, outcome);
        }
    }

    /** Makes {@code span} current on this thread until the scope closes; the no-op scope when off. */
    public Scope enter(Span span) {
        return on ? span.makeCurrent() : Scope.noop();
    }

    /** {@code task} running in this thread's current context, wherever it runs; itself when off. */
    public <T> Callable<T> wrap(Callable<T> task) {
        return on ? Context.current().wrap(task) : task;
    }

    /** {@code task} running in this thread's current context, wherever it runs; itself when off. */
    public Runnable wrap(Runnable task) {
        return on ? Context.current().wrap(task) : task;
    }
}
