package dev.threadline.examples.adk;

import com.google.adk.agents.LlmAgent;
import com.google.adk.artifacts.InMemoryArtifactService;
import com.google.adk.events.Event;
import com.google.adk.events.EventActions;
import com.google.adk.models.BaseLlm;
import com.google.adk.models.BaseLlmConnection;
import com.google.adk.models.LlmRequest;
import com.google.adk.models.LlmResponse;
import com.google.adk.runner.Runner;
import com.google.adk.sessions.Session;
import com.google.genai.types.Content;
import com.google.genai.types.Part;
import dev.threadline.adk.ThreadlineSessionService;
import dev.threadline.core.Threadline;
import dev.threadline.store.sqlite.SqliteStateStore;
import io.reactivex.rxjava3.core.Flowable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A Google ADK agent run by ADK's own {@link Runner}, its sessions in Threadline
 * ({@link ThreadlineSessionService} on a SQLite file): a turn, then a second runtime on the same file (as
 * after a restart) continues the session with its events and state. As in ADK, a session's initial state is
 * its own, and {@code user:} state written by an event is shared with the user's other sessions (Threadline's
 * user scope). The model is {@link OfflineEcho}, a real ADK {@link BaseLlm} that needs no network.
 * Argument: a folder for the database (default: a new temporary one).
 */
public final class Main {
    static final String APP = "echo-app";

    /** An ADK model that runs offline: repeats the last user text and says how many user turns it has seen. */
    static final class OfflineEcho extends BaseLlm {
        OfflineEcho() {
            super("offline-echo");
        }

        @Override
        public Flowable<LlmResponse> generateContent(LlmRequest request, boolean stream) {
            List<Content> contents = request.contents();
            long userTurns = contents.stream().filter(c -> c.role().orElse("").equals("user")).count();
            String reply = "You said: " + contents.getLast().text() + " (user turn " + userTurns + ")";
            return Flowable.just(LlmResponse.builder()
                    .content(Content.builder().role("model").parts(List.of(Part.fromText(reply))).build()).build());
        }

        @Override
        public BaseLlmConnection connect(LlmRequest request) {
            throw new UnsupportedOperationException("the offline model has no live connection");
        }
    }

    public static void main(String[] args) throws Exception {
        Path dir = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("threadline-adk");
        Path db = dir.resolve("sessions.db");
        LlmAgent agent = LlmAgent.builder().name("echo").model(new OfflineEcho())
                .instruction("Repeat what the user says.").outputKey("last_reply").build();

        try (Threadline tl = Threadline.builder().store(SqliteStateStore.open(db)).build()) { // ADK calls its own model
            ThreadlineSessionService sessions = new ThreadlineSessionService(tl);
            Session s1 = sessions.createSession(APP, "ada", Map.of("topic", "greetings"), "s1").blockingGet();
            // state shared with the user's other sessions is written by an event, as with ADK's own services
            sessions.appendEvent(s1, Event.builder().author("user").actions(EventActions.builder()
                    .stateDelta(new ConcurrentHashMap<>(Map.of("user:name", "Ada"))).build()).build()).blockingGet();
            System.out.println("reply: " + run(new Runner(agent, APP, new InMemoryArtifactService(), sessions), "hello"));
        }
        try (Threadline tl = Threadline.builder().store(SqliteStateStore.open(db)).build()) { // as after a restart
            ThreadlineSessionService sessions = new ThreadlineSessionService(tl);
            System.out.println("reply: " + run(new Runner(agent, APP, new InMemoryArtifactService(), sessions), "still there?"));
            Session s = sessions.getSession(APP, "ada", "s1", Optional.empty()).blockingGet();
            System.out.println("session s1: " + s.events().size() + " events, state last_reply=" + s.state().get("last_reply")
                    + ", topic=" + s.state().get("topic") + ", user:name=" + s.state().get("user:name"));
            Session s2 = sessions.createSession(APP, "ada", Map.of(), "s2").blockingGet();
            System.out.println("session s2: topic=" + s2.state().get("topic") + ", user:name=" + s2.state().get("user:name"));
            System.out.println("user scope in Threadline: " + tl.tenant(APP).userVariables("ada"));
        }
    }

    private static String run(Runner runner, String text) {
        StringBuilder reply = new StringBuilder();
        runner.runAsync("ada", "s1", Content.fromParts(Part.fromText(text)))
                .blockingForEach((Event e) -> {
                    if (e.finalResponse()) {
                        reply.append(e.stringifyContent());
                    }
                });
        return reply.toString();
    }
}
