package dev.threadline.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The human-in-the-loop API: approvals (approve, approve with edited arguments, deny), ask_user answers,
 * typed edits, the double-texting strategies, token deltas in a turn's stream, and branches that need
 * the side-effect acknowledgement. Every refusal leaves the journal exactly as it was.
 */
class HumanInTheLoopTest {
    @TempDir
    static Path dir;
    static TestServer server;
    static Http http;

    @BeforeAll
    static void start() {
        server = new TestServer(ServerConfig.of(dir.resolve("hitl.db")).withPort(0).withModels(TestModels.resolver())
                .withSkills(TestModels.skills()));
        http = server.http;
    }

    @AfterAll
    static void stop() {
        TestModels.release.countDown();
        server.close();
    }

    @AfterEach
    void openTheGate() {
        TestModels.resetGate();
    }

    private static String journal(String id) {
        Http.Response r = http.get("/v1/sessions/" + id + "/export");
        assertThat(r.status()).isEqualTo(200);
        return r.body();
    }

    /** Sends {@code body} to {@code path}, expects {@code status} and a problem, and that the journal of {@code id} is unchanged. */
    private static JsonNode refused(String id, String path, String body, int status) {
        String before = journal(id);
        Http.Response r = http.post(path, body);
        assertThat(r.status()).as(path + " " + body + ": " + r.body()).isEqualTo(status);
        assertThat(r.contentType()).startsWith("application/problem+json");
        assertThat(journal(id)).as("nothing written by " + path + " " + body).isEqualTo(before);
        return r.json();
    }

    private static void create(String id, String config) {
        assertThat(http.post("/v1/sessions", "{\"id\":\"" + id + "\",\"config\":" + config + "}").status()).isEqualTo(201);
    }

    @Test
    void aCallThatNeedsApprovalWaitsThenRunsWithEditedArgumentsAndASecondDecisionIsRefused() {
        create("ap-1", "{\"requireApproval\":[\"calculate\"]}");
        JsonNode turn = http.post("/v1/sessions/ap-1/messages", "{\"text\":\"what is 2+3\"}").json();
        assertThat(turn.path("outcome").asText()).isEqualTo("AWAITING_APPROVAL");
        assertThat(http.get("/v1/sessions/ap-1/state").json().path("status").asText()).isEqualTo("awaiting_approval");

        JsonNode pending = http.get("/v1/sessions/ap-1/approvals").json();
        assertThat(pending.path("status").asText()).isEqualTo("awaiting_approval");
        assertThat(pending.path("items")).hasSize(1);
        JsonNode call = pending.path("items").get(0);
        assertThat(call.path("kind").asText()).isEqualTo("approval");
        assertThat(call.path("name").asText()).isEqualTo("calculate");
        assertThat(call.path("arguments").path("expression").asText()).isEqualTo("2+3");
        String id = call.path("toolUseId").asText();
        String path = "/v1/sessions/ap-1/approvals/" + id;

        assertThat(refused("ap-1", "/v1/sessions/ap-1/approvals/toolu_nope", "{\"decision\":\"approve\"}", 409)
                .path("type").asText()).endsWith("/not-awaiting");
        assertThat(refused("ap-1", path, "{\"decision\":\"maybe\"}", 400).path("field").asText()).isEqualTo("decision");
        assertThat(refused("ap-1", path, "{\"decision\":\"approve\",\"reason\":\"why not\"}", 400).path("field").asText()).isEqualTo("reason");
        assertThat(refused("ap-1", path, "{\"decision\":\"deny\"}", 400).path("field").asText()).isEqualTo("reason");
        assertThat(refused("ap-1", path, "{\"decision\":\"approve\",\"arguments\":{\"expression\":7}}", 422).path("type").asText())
                .endsWith("/invalid-arguments");
        assertThat(refused("ap-1", "/v1/sessions/ap-1/answers/" + id, "{\"text\":\"yes\"}", 409).path("type").asText())
                .endsWith("/not-awaiting"); // an approval is not a question

        JsonNode done = http.post(path, "{\"decision\":\"approve\",\"arguments\":{\"expression\":\"3+4\"}}").json();
        assertThat(done.path("outcome").asText()).isEqualTo("COMPLETED");
        assertThat(done.path("reply").asText()).contains("7");
        assertThat(http.get("/v1/sessions/ap-1/approvals").json().path("items")).isEmpty();
        refused("ap-1", path, "{\"decision\":\"approve\"}", 409);
        refused("ap-1", path, "{\"decision\":\"deny\",\"reason\":\"too late\"}", 409);
    }

    @Test
    void aDeniedCallNeverRunsItsErrorGoesToTheModelAndTheDenialIsCounted() {
        create("ap-2", "{\"requireApproval\":[\"calculate\"]}");
        http.post("/v1/sessions/ap-2/messages", "{\"text\":\"what is 6*7\"}");
        String id = http.get("/v1/sessions/ap-2/approvals").json().path("items").get(0).path("toolUseId").asText();
        JsonNode done = http.post("/v1/sessions/ap-2/approvals/" + id, "{\"decision\":\"deny\",\"reason\":\"no maths today\"}").json();
        assertThat(done.path("outcome").asText()).isEqualTo("COMPLETED");
        assertThat(done.path("reply").asText()).doesNotContain("42").contains("no maths today");
        JsonNode state = http.get("/v1/sessions/ap-2/state").json();
        assertThat(state.path("permissionDenials").asInt()).isEqualTo(1);
        assertThat(journal("ap-2")).contains("ApprovalDenied").doesNotContain("\"42\"");
    }

    @Test
    void aQuestionWaitsForItsAnswerWhichBecomesTheResult() {
        create("ask-1", "{\"model\":\"ask\"}");
        JsonNode turn = http.post("/v1/sessions/ask-1/messages", "{\"text\":\"plan a trip\"}").json();
        assertThat(turn.path("outcome").asText()).isEqualTo("AWAITING_INPUT");
        JsonNode q = http.get("/v1/sessions/ask-1/approvals").json().path("items").get(0);
        assertThat(q.path("kind").asText()).isEqualTo("question");
        assertThat(q.path("name").asText()).isEqualTo("ask_user");
        assertThat(q.path("question").asText()).isEqualTo("Which city?");
        String path = "/v1/sessions/ask-1/answers/" + q.path("toolUseId").asText();

        refused("ask-1", path, "{\"text\":\"  \"}", 400);
        refused("ask-1", path, "{\"answer\":\"Paris\"}", 400);
        refused("ask-1", "/v1/sessions/ask-1/approvals/" + q.path("toolUseId").asText(), "{\"decision\":\"approve\"}", 409);
        JsonNode done = http.post(path, "{\"text\":\"Paris\"}").json();
        assertThat(done.path("reply").asText()).isEqualTo("you said Paris");
        refused("ask-1", path, "{\"text\":\"Rome\"}", 409);
    }

    @Test
    void anApprovalStreamsTheRestOfTheTurnWithDeltasBeforeTheirMessage() throws Exception {
        create("ap-3", "{\"requireApproval\":[\"calculate\"]}");
        http.post("/v1/sessions/ap-3/messages", "{\"text\":\"what is (2+3)*4\"}");
        String id = http.get("/v1/sessions/ap-3/approvals").json().path("items").get(0).path("toolUseId").asText();
        List<Http.Sse> events = stream("/v1/sessions/ap-3/approvals/" + id, "{\"decision\":\"approve\"}");
        assertThat(events.getLast().event()).isEqualTo("result");
        assertThat(events.getLast().json().path("reply").asText()).contains("20");
        assertThat(events).extracting(Http.Sse::event).contains("ApprovalGiven", "ToolCallCompleted", "delta",
                "AssistantMessageReceived", "TurnCompleted");
        assertDeltasPrecedeTheirMessage(events);
    }

    @Test
    void aStreamedTurnSendsTheModelsTextAsDeltasWithoutIdsBeforeTheMessageIsJournalled() throws Exception {
        create("delta-1", "{}");
        List<Http.Sse> events = stream("/v1/sessions/delta-1/messages", "{\"text\":\"hello there\"}");
        assertThat(events).extracting(Http.Sse::event).contains("delta");
        assertDeltasPrecedeTheirMessage(events);
        assertThat(journal("delta-1")).doesNotContain("\"delta\"");
    }

    /** The deltas before each AssistantMessageReceived add up to its text; deltas carry no id. */
    private static void assertDeltasPrecedeTheirMessage(List<Http.Sse> events) {
        StringBuilder text = new StringBuilder();
        int messages = 0;
        for (Http.Sse e : events) {
            if (e.event().equals("delta")) {
                assertThat(e.id()).isNull();
                text.append(e.json().path("text").asText());
            } else if (e.event().equals("AssistantMessageReceived")) {
                StringBuilder said = new StringBuilder();
                e.json().path("event").path("message").path("content").forEach(b -> said.append(b.path("text").asText("")));
                if (!said.isEmpty()) {
                    assertThat(text.toString()).isEqualTo(said.toString());
                    messages++;
                }
                text.setLength(0);
            }
        }
        assertThat(messages).as("at least one message came as deltas first").isPositive();
    }

    private static List<Http.Sse> stream(String path, String body) throws java.io.IOException {
        HttpResponse<InputStream> res = http.stream(http.request(path).header("Accept", "text/event-stream")
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build());
        assertThat(res.statusCode()).isEqualTo(200);
        return Http.readEvents(res.body(), l -> false);
    }

    @Test
    void editsSetAndRemoveVariablesInEachScopeAndAppendMessagesAsOneStep() {
        assertThat(http.post("/v1/sessions", "{\"id\":\"ed-1\",\"userId\":\"ann\"}").status()).isEqualTo(201);
        String before = journal("ed-1");
        JsonNode state = http.post("/v1/sessions/ed-1/edits", """
                {"author":"ops","reason":"fix the plan","edits":[
                  {"kind":"set_variable","name":"plan","value":{"tier":"gold"}},
                  {"kind":"set_variable","scope":"user","name":"lang","value":"fr"},
                  {"kind":"set_variable","scope":"app","name":"motd","value":"hi"},
                  {"kind":"append_message","role":"user","text":"note: gold plan"},
                  {"kind":"append_message","role":"assistant","text":"Noted."}]}""").json();
        assertThat(state.path("status").asText()).isEqualTo("idle");
        assertThat(state.path("variables").path("plan").path("tier").asText()).isEqualTo("gold");
        String after = journal("ed-1");
        assertThat(after.lines().count() - before.lines().count()).as("one StateEdited event").isEqualTo(1);
        assertThat(after.lines().toList().getLast()).contains("StateEdited").contains("\"ops\"").contains("fix the plan");
        JsonNode removed = http.post("/v1/sessions/ed-1/edits",
                "{\"author\":\"ops\",\"edits\":[{\"kind\":\"remove_variable\",\"name\":\"plan\"}]}").json();
        assertThat(removed.path("variables").has("plan")).isFalse();
        assertThat(http.post("/v1/sessions/ed-1/messages", "{\"text\":\"what is 1+1\"}").json().path("reply").asText()).contains("2");
    }

    @Test
    void eachRefusedEditNamesWhyAndWritesNothing() {
        assertThat(http.post("/v1/sessions", "{\"id\":\"ed-2\"}").status()).isEqualTo(201);
        String p = "/v1/sessions/ed-2/edits";
        assertThat(refused("ed-2", p, "{\"author\":\"ops\",\"edits\":[{\"kind\":\"set_variable\",\"scope\":\"temp\",\"name\":\"x\",\"value\":1}]}",
                409).path("detail").asText()).contains("temp");
        refused("ed-2", p, "{\"author\":\"ops\",\"edits\":[{\"kind\":\"append_message\",\"role\":\"tool\",\"content\":"
                + "[{\"type\":\"tool_result\",\"toolUseId\":\"t1\",\"content\":\"x\",\"isError\":false}]}]}", 409);
        refused("ed-2", p, "{\"author\":\"ops\",\"edits\":[{\"kind\":\"append_message\",\"role\":\"assistant\",\"content\":"
                + "[{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"calculate\",\"input\":{}}]}]}", 409);
        assertThat(refused("ed-2", p, "{\"author\":\"ops\",\"edits\":[{\"kind\":\"rename\"}]}", 400).path("field").asText())
                .isEqualTo("edits[0].kind");
        assertThat(refused("ed-2", p, "{\"author\":\"ops\",\"edits\":[{\"kind\":\"set_variable\",\"name\":\"x\"}]}", 400)
                .path("field").asText()).isEqualTo("edits[0].value");
        assertThat(refused("ed-2", p, "{\"author\":\"ops\",\"edits\":[{\"kind\":\"remove_variable\",\"name\":\"x\",\"value\":1}]}",
                400).path("field").asText()).isEqualTo("edits[0].value");
        assertThat(refused("ed-2", p, "{\"author\":\"ops\",\"edits\":[{\"kind\":\"set_variable\",\"scope\":\"galaxy\",\"name\":\"x\","
                + "\"value\":1}]}", 400).path("field").asText()).isEqualTo("edits[0].scope");
        refused("ed-2", p, "{\"author\":\"ops\",\"edits\":[{\"kind\":\"append_message\",\"role\":\"user\"}]}", 400);
        refused("ed-2", p, "{\"author\":\" \",\"edits\":[{\"kind\":\"remove_variable\",\"name\":\"x\"}]}", 400);
        refused("ed-2", p, "{\"author\":\"ops\",\"edits\":[]}", 400);
        refused("ed-2", p, "{\"author\":\"ops\"}", 400);
        // and none while a turn waits for a person
        create("ed-3", "{\"requireApproval\":[\"calculate\"]}");
        http.post("/v1/sessions/ed-3/messages", "{\"text\":\"what is 2+3\"}");
        refused("ed-3", "/v1/sessions/ed-3/edits", "{\"author\":\"ops\",\"edits\":[{\"kind\":\"remove_variable\",\"name\":\"x\"}]}", 409);
    }

    /** Starts "gate" on a new gate session and waits until the turn is inside the gate skill. */
    private static CompletableFuture<Http.Response> turnAtTheGate(String id, String config) throws InterruptedException {
        create(id, config);
        http.post("/v1/sessions/" + id + "/messages", "{\"text\":\"hello\"}");
        CompletableFuture<Http.Response> turn = CompletableFuture.supplyAsync(
                () -> http.post("/v1/sessions/" + id + "/messages", "{\"text\":\"gate\"}"));
        assertThat(TestModels.entered.await(60, TimeUnit.SECONDS)).as("the turn reached the gate").isTrue();
        return turn;
    }

    @Test
    void rejectAnswers409NamingTheRunningTurnAndWritesNothing() throws Exception {
        CompletableFuture<Http.Response> turn = turnAtTheGate("dt-reject", "{\"model\":\"gate\"}");
        Http.Response busy = http.post("/v1/sessions/dt-reject/messages", "{\"text\":\"second\",\"strategy\":\"reject\"}");
        assertThat(busy.status()).isEqualTo(409);
        assertThat(busy.json().path("type").asText()).endsWith("/session-busy");
        assertThat(busy.json().path("detail").asText()).contains("'gate'");
        assertThat(busy.headers().firstValue("Retry-After")).isPresent();
        assertThat(journal("dt-reject")).doesNotContain("second");
        TestModels.release.countDown();
        assertThat(turn.get(60, TimeUnit.SECONDS).json().path("reply").asText()).isEqualTo("done: passed");
        refused("dt-reject", "/v1/sessions/dt-reject/messages", "{\"text\":\"x\",\"strategy\":\"shout\"}", 400);
    }

    @Test
    void interruptEndsTheRunningTurnThenRunsTheMessage() throws Exception {
        CompletableFuture<Http.Response> turn = turnAtTheGate("dt-int", "{\"model\":\"gate\"}");
        JsonNode second = http.post("/v1/sessions/dt-int/messages", "{\"text\":\"second\",\"strategy\":\"interrupt\"}").json();
        assertThat(second.path("reply").asText()).isEqualTo("ack second");
        assertThat(turn.get(60, TimeUnit.SECONDS).json().path("outcome").asText()).isEqualTo("INTERRUPTED");
        assertThat(journal("dt-int")).contains("TurnInterrupted");
    }

    @Test
    void rollbackSetsTheRunningTurnAsideAndContinuesFromBeforeIt() throws Exception {
        CompletableFuture<Http.Response> turn = turnAtTheGate("dt-rb", "{\"model\":\"gate\"}");
        JsonNode second = http.post("/v1/sessions/dt-rb/messages", "{\"text\":\"instead\",\"strategy\":\"rollback\"}").json();
        assertThat(second.path("reply").asText()).isEqualTo("ack instead");
        turn.get(60, TimeUnit.SECONDS);
        List<String> texts = http.get("/v1/sessions/dt-rb/state").json().path("messages").findValues("text").stream()
                .map(JsonNode::asText).toList();
        assertThat(texts).containsExactly("hello", "ack hello", "instead", "ack instead");
    }

    @Test
    void steerJoinsTheRunningTurnBeforeItsNextModelCall() throws Exception {
        CompletableFuture<Http.Response> turn = turnAtTheGate("dt-steer", "{\"model\":\"gate\"}");
        CompletableFuture<Http.Response> second = CompletableFuture.supplyAsync(
                () -> http.post("/v1/sessions/dt-steer/messages", "{\"text\":\"second\",\"strategy\":\"steer\"}"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!journal("dt-steer").contains("MessageSteered")) { // journalled while the gate still holds the tool
            assertThat(System.nanoTime()).as("the steered message reached the journal").isLessThan(deadline);
        }
        TestModels.release.countDown();
        JsonNode first = turn.get(60, TimeUnit.SECONDS).json();
        assertThat(first.path("reply").asText()).as("the same turn answered the steered message").isEqualTo("ack second");
        assertThat(second.get(60, TimeUnit.SECONDS).json().path("reply").asText()).isEqualTo("ack second");
        List<String> texts = http.get("/v1/sessions/dt-steer/state").json().path("messages").findValues("text").stream()
                .map(JsonNode::asText).toList();
        assertThat(texts).containsExactly("hello", "ack hello", "gate", "second", "ack second");
    }

    @Test
    void enqueueRunsTheMessageAfterTheRunningTurn() throws Exception {
        CompletableFuture<Http.Response> turn = turnAtTheGate("dt-enq", "{\"model\":\"gate\",\"doubleTexting\":\"reject\"}");
        assertThat(http.post("/v1/sessions/dt-enq/messages", "{\"text\":\"x\"}").status()).as("the session's own strategy").isEqualTo(409);
        CompletableFuture<Http.Response> second = CompletableFuture.supplyAsync(
                () -> http.post("/v1/sessions/dt-enq/messages", "{\"text\":\"second\",\"strategy\":\"enqueue\"}"));
        TestModels.release.countDown();
        assertThat(turn.get(60, TimeUnit.SECONDS).json().path("reply").asText()).isEqualTo("done: passed");
        assertThat(second.get(60, TimeUnit.SECONDS).json().path("reply").asText()).isEqualTo("ack second");
    }

    @Test
    void aBranchToBeforeASideEffectNeedsTheAcknowledgement() {
        create("fx-1", "{\"model\":\"gate\"}");
        long before = http.post("/v1/sessions/fx-1/messages", "{\"text\":\"hello\"}").json().path("seq").asLong();
        int paid = TestModels.payments.get();
        assertThat(http.post("/v1/sessions/fx-1/messages", "{\"text\":\"pay\"}").json().path("reply").asText()).startsWith("done: paid");
        JsonNode problem = refused("fx-1", "/v1/sessions/fx-1/rewind", "{\"seq\":" + before + "}", 409);
        assertThat(problem.path("type").asText()).endsWith("/undone-effects");
        assertThat(problem.path("field").asText()).isEqualTo("acknowledgeEffects");
        assertThat(problem.path("detail").asText()).contains("pay");
        refused("fx-1", "/v1/sessions/fx-1/fork", "{\"seq\":" + before + "}", 409);
        refused("fx-1", "/v1/sessions/fx-1/fork", "{\"seq\":" + before + ",\"acknowledgeEffects\":\"yes\"}", 400);
        Http.Response rewound = http.post("/v1/sessions/fx-1/rewind", "{\"seq\":" + before + ",\"acknowledgeEffects\":true}");
        assertThat(rewound.status()).isEqualTo(201);
        Http.Response forked = http.post("/v1/sessions/fx-1/fork", "{\"seq\":" + before + ",\"acknowledgeEffects\":true}");
        assertThat(forked.status()).isEqualTo(201);
        assertThat(TestModels.payments.get()).as("branching runs nothing again").isEqualTo(paid + 1);
    }
}
