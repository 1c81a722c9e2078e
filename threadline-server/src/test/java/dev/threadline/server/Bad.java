package dev.threadline.server;

import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;

/** Generators of malformed request parts for {@link MalformedRequestProperties}; none yields a valid request. */
final class Bad {
    private Bad() {}

    static Arbitrary<byte[]> bodies() {
        Arbitrary<String> syntax = Arbitraries.of("{", "}", "{\"text\":}", "{\"text\" \"x\"}", "{'text':'x'}", "{} trailing", "nul",
                "[]", "[1,2]", "1", "-0", "\"text\"", "true", "null", "{\"text\":\"a\"", "{\"a\":1,}", "\u0000", " \t",
                "{\"text\":\"\\uZZZZ\"}", "{\"text\":\"\\ud800\"}");
        Arbitrary<String> types = Arbitraries.of("{\"text\":5}", "{\"text\":[\"x\"]}", "{\"text\":{}}", "{\"text\":true}",
                "{\"text\":\" \"}", "{\"text\":\"\"}", "{\"text\":\"a\\u0000b\"}", "{\"seq\":\"1\"}", "{\"seq\":1.5}", "{\"seq\":-1}",
                "{\"seq\":0}", "{\"seq\":999999}", "{\"seq\":1e400}", "{\"seq\":99999999999999999999999999}", "{\"seq\":9007199254740993}",
                "{\"seq\":null}", "{\"id\":5}", "{\"id\":\"\"}", "{\"id\":\"../x\"}", "{\"id\":\"a\\u0000\"}", "{\"id\":[]}",
                "{\"metadata\":\"x\"}", "{\"metadata\":{\"k\":5}}", "{\"metadata\":{\"k\\u0000\":\"v\"}}", "{\"ttlSeconds\":0}",
                "{\"ttlSeconds\":-5}", "{\"ttlSeconds\":1e999}", "{\"config\":[]}", "{\"config\":{\"maxIterations\":-1}}",
                "{\"config\":{\"maxIterations\":1e10}}", "{\"config\":{\"model\":\"\"}}", "{\"config\":{\"contextPolicy\":\"bogus\"}}",
                "{\"config\":{\"skills\":[5]}}", "{\"config\":{\"skills\":[\"no_such_skill\"]}}", "{\"config\":{\"extra\":1}}",
                "{\"focus\":5}", "{\"focus\":\"a\\u0000\"}", "{\"unknown\":1}", "{\"text\":\"x\",\"strategy\":\"shout\"}", "{\"text\":\"x\",\"strategy\":5}",
                "{\"userId\":\"../u\"}", "{\"userId\":7}");
        Arbitrary<String> big = Arbitraries.of("[".repeat(10_000), "{\"a\":".repeat(10_000), "{\"text\":" + "[".repeat(5000) + "}",
                "{\"seq\":" + "9".repeat(5000) + "}", "{\"text\":\"" + "x".repeat(100_001) + "\"}",
                "{\"id\":\"" + "a".repeat(10_000) + "\"}");
        Arbitrary<byte[]> utf8 = Arbitraries.of(new byte[] {'{', '"', 't', 'e', 'x', 't', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'},
                new byte[] {(byte) 0xFF, (byte) 0xFE, '{', '}'}, new byte[] {'{', '"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"', ':', '1', '}'},
                new byte[] {'{', '"', 't', 'e', 'x', 't', '"', ':', '"', (byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, '"', '}'});
        Arbitrary<byte[]> text = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(4, syntax), net.jqwik.api.Tuple.of(6, types), net.jqwik.api.Tuple.of(1, big))
                .map(s -> s.getBytes(StandardCharsets.UTF_8));
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(9, text), net.jqwik.api.Tuple.of(1, utf8));
    }

    /** Decisions a waiting approval refuses: none of them approves or denies it. */
    static Arbitrary<String> decisions() {
        return Arbitraries.of("{}", "{\"decision\":5}", "{\"decision\":\"yes\"}", "{\"decision\":\"APPROVE \"}",
                "{\"decision\":\"approve\",\"reason\":\"x\"}", "{\"decision\":\"deny\"}", "{\"decision\":\"deny\",\"reason\":\"  \"}",
                "{\"decision\":\"deny\",\"reason\":5}", "{\"decision\":\"deny\",\"reason\":\"x\",\"arguments\":{}}",
                "{\"decision\":\"approve\",\"arguments\":[]}", "{\"decision\":\"approve\",\"arguments\":\"2+2\"}",
                "{\"decision\":\"approve\",\"arguments\":{\"expression\":7}}", "{\"decision\":\"approve\",\"arguments\":{}}",
                "{\"decision\":\"approve\",\"arguments\":{\"expression\":\"1\",\"extra\":1}}",
                "{\"decision\":\"approve\",\"extra\":1}", "{\"decision\":\"deny\",\"reason\":\"a\u0000b\"}",
                "{\"decision\":\"approve\",\"arguments\":" + "[".repeat(5000) + "}");
    }

    /** Edits refused by their shape or by the state (while a turn waits, all are): none writes anything. */
    static Arbitrary<String> edits() {
        String set = "{\"kind\":\"set_variable\",\"name\":\"x\",\"value\":1}";
        return Arbitraries.of("{}", "{\"author\":\"ops\"}", "{\"author\":\"ops\",\"edits\":[]}", "{\"author\":\"\",\"edits\":[" + set + "]}",
                "{\"edits\":[" + set + "]}", "{\"author\":5,\"edits\":[" + set + "]}", "{\"author\":\"ops\",\"edits\":\"x\"}",
                "{\"author\":\"ops\",\"edits\":[5]}", "{\"author\":\"ops\",\"edits\":[{}]}", "{\"author\":\"ops\",\"edits\":[{\"kind\":\"rename\"}]}",
                "{\"author\":\"ops\",\"edits\":[{\"kind\":\"set_variable\",\"name\":\"x\"}]}",
                "{\"author\":\"ops\",\"edits\":[{\"kind\":\"set_variable\",\"scope\":\"temp\",\"name\":\"x\",\"value\":1}]}",
                "{\"author\":\"ops\",\"edits\":[{\"kind\":\"set_variable\",\"scope\":\"galaxy\",\"name\":\"x\",\"value\":1}]}",
                "{\"author\":\"ops\",\"edits\":[{\"kind\":\"set_variable\",\"name\":\" \",\"value\":1}]}",
                "{\"author\":\"ops\",\"edits\":[{\"kind\":\"remove_variable\",\"name\":\"x\",\"value\":1}]}",
                "{\"author\":\"ops\",\"edits\":[{\"kind\":\"append_message\",\"role\":\"tool\",\"text\":\"x\"}]}",
                "{\"author\":\"ops\",\"edits\":[{\"kind\":\"append_message\",\"role\":\"wizard\",\"text\":\"x\"}]}",
                "{\"author\":\"ops\",\"edits\":[{\"kind\":\"append_message\",\"role\":\"user\"}]}",
                "{\"author\":\"ops\",\"edits\":[{\"kind\":\"append_message\",\"role\":\"user\",\"text\":\"x\",\"content\":[]}]}",
                "{\"author\":\"ops\",\"edits\":[{\"kind\":\"append_message\",\"role\":\"user\",\"content\":[{\"type\":\"bogus\"}]}]}",
                "{\"author\":\"ops\",\"edits\":[{\"kind\":\"append_message\",\"role\":\"assistant\",\"content\":"
                        + "[{\"type\":\"tool_use\",\"id\":\"t9\",\"name\":\"calculate\",\"input\":{}}]}]}",
                "{\"author\":\"ops\",\"edits\":[" + set + ",{\"kind\":\"set_variable\",\"scope\":\"temp\",\"name\":\"y\",\"value\":1}]}",
                "{\"author\":\"ops\",\"edits\":[{\"kind\":\"set_variable\",\"name\":\"x\",\"value\":" + "[".repeat(5000) + "}]}");
    }

    static Arbitrary<List<String>> headers() {
        return Arbitraries.of(List.of(), List.of("Content-Type", "text/plain"), List.of("Accept", "text/event-stream"),
                List.of("Idempotency-Key", "x".repeat(300)), List.of("Idempotency-Key", "k-fuzz"),
                List.of("Content-Type", "application/json; charset=latin1"));
    }

    static Arbitrary<String> numbers() {
        return Arbitraries.of("-1", "abc", "1e3", "1.5", "99999999999999999999", "9007199254740993", "", "%00", "0x10", "+-1", "NaN", "-0x1");
    }

    static Arbitrary<String> lastEventIds() {
        return Arbitraries.of("-1", "abc", "1e3", "1.5", "99999999999999999999", "9007199254740993", "", " ", "0x10", "NaN", "1 2", "1;2", "--1");
    }

    static Arbitrary<String> queries() {
        return Arbitraries.of("limit=0", "limit=1001", "limit=abc", "limit=99999999999999999999", "limit=-1", "limit=",
                "cursor=-1", "cursor=" + "z".repeat(10_000), "cursor=%00", "user=%00", "user=" + "u".repeat(200),
                "metadata.k=%00", "metadata.k=v&metadata.k=w", "unknown=1", "limit=1e2", "cursor=abc", "cursor=9007199254740993");
    }

    static Arbitrary<String> ids() {
        return Arbitraries.of("..%2Fx", "..", "%2E%2E", "a%00b", "%00", "a%2Fb", "%20", "-x", ".x", "a%20b", "%C3%28", "%FF",
                "a".repeat(129), "a".repeat(10_000), "%E2%80%AE", "caf%C3%A9", "fuzz-a%00", "FUZZ-A.", "x%3Cscript%3E", "~root");
    }
}
