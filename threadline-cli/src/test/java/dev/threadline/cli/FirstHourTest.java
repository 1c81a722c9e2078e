package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI as a new user meets it in the first hour: help, usage errors, where the store is, and what is created. */
class FirstHourTest {
    @TempDir
    Path dir;

    private static CliTest.Run run(String input, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), new PrintWriter(out, true),
                new PrintWriter(err, true), args);
        return new CliTest.Run(code, out.toString(), err.toString());
    }

    private String db() {
        return dir.resolve("x.db").toString();
    }

    @Test
    void helpListsEverySubcommandIncludingBench() {
        CliTest.Run r = run("", "--help");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("chat ", "sessions ", "bench ", "help ").contains("docs/cli.md");
        CliTest.Run bench = run("", "bench", "--quick");
        assertThat(bench.code()).isEqualTo(2);
        assertThat(bench.err()).contains("./threadline bench");
    }

    @Test
    void noArgumentsListsTheCommandsInsteadOfMissingRequiredSubcommand() {
        for (String[] args : new String[][] {{}, {"sessions"}, {"keys"}}) {
            CliTest.Run r = run("", args);
            assertThat(r.code()).isEqualTo(2);
            assertThat(r.err()).doesNotContain("Missing required subcommand").contains("Usage: threadline").contains("Commands:");
            assertThat(r.out()).isEmpty();
        }
        assertThat(run("").err()).contains("  chat ", "  sessions ", "  serve ", "  keys ", "docs/cli.md");
        assertThat(run("", "sessions").err()).contains("  list ", "  show ", "  export ", "  delete ");
    }

    @Test
    void helpNeverWrapsInsideAWord() {
        java.util.ArrayDeque<picocli.CommandLine> todo = new java.util.ArrayDeque<>(List.of(Main.commandLine(System.in,
                new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()))));
        int checked = 0;
        while (!todo.isEmpty()) {
            picocli.CommandLine cmd = todo.pop();
            todo.addAll(cmd.getSubcommands().values());
            var spec = cmd.getCommandSpec();
            if (spec.name().equals("bench") || spec.name().equals("help")) {
                continue; // bench's help is its own jar's; help's is picocli's
            }
            String[] args = (spec.qualifiedName().replaceFirst("^threadline ?", "") + " --help").strip().split(" ");
            CliTest.Run r = run("", args);
            assertThat(r.code()).as(String.join(" ", args)).isZero();
            List<String> texts = new java.util.ArrayList<>(List.of(spec.usageMessage().description()));
            texts.addAll(List.of(spec.usageMessage().footer()));
            spec.options().forEach(o -> texts.addAll(List.of(o.description())));
            spec.positionalParameters().forEach(p -> texts.addAll(List.of(p.description())));
            cmd.getSubcommands().values().forEach(sub -> texts.add(sub.getCommandSpec().usageMessage().description()[0]
                    .split("%n")[0])); // a command list shows the first line of each
            for (String text : texts) {
                for (String word : text.split("\\s+")) {
                    assertThat(r.out()).as(String.join(" ", args) + " breaks '" + word + "'").contains(word);
                }
            }
            checked++;
        }
        assertThat(checked).isGreaterThan(8);
    }

    @Test
    void theRewindHintForANonCheckpointNamesTheSlashCommand() {
        run("hello\n", "chat", "--model", "scripted", "--db", db(), "--session", "s1");
        CliTest.Run r = run("/rewind 999\n/fork 999\n", "chat", "--model", "scripted", "--db", db(), "--session", "s1");
        assertThat(r.err().lines().filter(l -> l.contains("999"))).hasSize(2)
                .allMatch(l -> l.startsWith("error: invalid seq: 999 is not a checkpoint") && l.endsWith("; /checkpoints lists them)"));
    }

    @Test
    void sessionsListHasAStatusColumn() {
        run("what is 1+1\n", "chat", "--model", "scripted", "--db", db(), "--session", "calm");
        try (dev.threadline.core.Threadline tl = dev.threadline.core.Threadline.builder()
                .store(dev.threadline.core.store.StateStores.open("sqlite:" + db())).model(dev.threadline.core.llm.ScriptedModel.demo())
                .skills(dev.threadline.core.skill.builtin.Builtins.all(dir)).build()) {
            var waiting = tl.defaultTenant().create("asks", dev.threadline.core.session.SessionConfig.DEFAULT.withModel("scripted")
                    .withRequireApproval(List.of("calculate")));
            assertThat(waiting.submit("what is 2+2").outcome()).isEqualTo(dev.threadline.core.runtime.TurnResult.Outcome.AWAITING_APPROVAL);
        }
        CliTest.Run list = run("", "sessions", "list", "--db", db());
        assertThat(list.code()).isZero();
        assertThat(list.out()).containsPattern("(?m)^calm +idle +seq ").containsPattern("(?m)^asks +awaiting_approval +seq ");
    }

    @Test
    void aBadOptionValueIsOneLineAndAHintNotTheWholeUsage() {
        CliTest.Run r = run("", "chat", "--model", "scripted", "--context-window", "lots", "--db", db());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().strip().split("\n")).hasSize(2);
        assertThat(r.err()).contains("'lots'").contains("Try 'threadline chat --help'").doesNotContain("--base-url");
        assertThat(dir.resolve("x.db")).doesNotExist();
    }

    @Test
    void aMissingArgumentShowsTheCommandsUsageLine() {
        CliTest.Run r = run("", "sessions", "show", "--db", db());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("Missing required parameter: 'ID'").contains("usage: threadline sessions show")
                .contains("Try 'threadline sessions show --help'");
        assertThat(r.err().strip().split("\n")).hasSize(3);
    }

    @Test
    void readOnlyCommandsCreateNoFileAndNoFolder() {
        Path missing = dir.resolve("nope").resolve("x.db");
        for (List<String> cmd : List.of(List.of("sessions", "list"), List.of("sessions", "show", "s1"),
                List.of("sessions", "export", "s1"), List.of("sessions", "delete", "s1"))) {
            for (List<String> where : List.of(List.of("--db", missing.toString()), List.of("--store", "sqlite:" + missing),
                    List.of("--db", db()))) {
                String[] args = java.util.stream.Stream.concat(cmd.stream(), where.stream()).toArray(String[]::new);
                CliTest.Run r = run("", args);
                assertThat(r.code()).as(String.join(" ", args)).isEqualTo(1);
                assertThat(r.err()).as(String.join(" ", args)).contains("no store at").contains("nothing was created")
                        .contains("threadline chat --db");
            }
        }
        assertThat(dir.resolve("nope")).doesNotExist();
        assertThat(dir.resolve("x.db")).doesNotExist();
    }

    @Test
    void chatCreatesAMissingFileAndSaysSoButNotAMissingFolder() {
        CliTest.Run refused = run("/exit\n", "chat", "--model", "scripted", "--db", dir.resolve("nope/x.db").toString());
        assertThat(refused.code()).isEqualTo(1);
        assertThat(refused.err()).contains("does not exist").contains("nothing was created");
        assertThat(dir.resolve("nope")).doesNotExist();

        CliTest.Run created = run("/exit\n", "chat", "--model", "scripted", "--db", db());
        assertThat(created.code()).isZero();
        assertThat(created.out()).contains("Created a new store: " + dir.resolve("x.db").toAbsolutePath());
        assertThat(dir.resolve("x.db")).isRegularFile();
        CliTest.Run again = run("/exit\n", "chat", "--model", "scripted", "--db", db());
        assertThat(again.out()).doesNotContain("Created");
    }

    @Test
    void aMissingWorkspaceIsAUsageErrorThatCreatesNoStore() {
        CliTest.Run r = run("/exit\n", "chat", "--model", "scripted", "--db", db(), "--workspace", dir.resolve("nope").toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("invalid workspace").contains("does not exist");
        assertThat(dir.resolve("x.db")).doesNotExist();
    }

    @Test
    void errorsGoToStderrAndUsageLinesNameTheMissingArgument() {
        CliTest.Run r = run("hello\n/rewind x\n/frobnicate\n/rewind\n/fork\n", "chat", "--model", "scripted", "--db", db(),
                "--session", "s1");
        assertThat(r.code()).isZero();
        assertThat(r.err()).contains("error: invalid SEQ: 'x' is not a checkpoint seq").contains("error: unknown command /frobnicate");
        assertThat(r.out()).doesNotContain("error:").contains("usage: /rewind SEQ").contains("usage: /fork SEQ");
    }

    @Test
    void forksAndRewindsAreLabelledDistinctly() {
        run("what is 1+1\n", "chat", "--model", "scripted", "--db", db(), "--session", "s1");
        CliTest.Run r = run("/fork 2\n/resume s1\n/rewind 2\n/sessions\n/help\n", "chat", "--model", "scripted", "--db", db(),
                "--session", "s1");
        assertThat(r.err()).isEmpty();
        assertThat(r.out()).containsPattern("s1\\.f1 .*\\(fork of s1 at seq 2\\)").containsPattern("s1\\.r1 .*\\(rewind of s1 at seq 2\\)")
                .containsPattern("/rewind SEQ +undo").containsPattern("/fork SEQ +branch off");
        assertThat(run("", "sessions", "list", "--db", db()).out()).contains("(fork of s1 at seq 2)").contains("(rewind of s1 at seq 2)");
        assertThat(run("", "sessions", "show", "s1.r1", "--db", db()).out()).contains("session  s1.r1  (rewind of s1 at seq 2)");
    }

    @Test
    void everySeqThatCheckpointsShowsIsAcceptedByRewind() {
        CliTest.Run cps = run("what is (2+3)*4\nnote buy milk\nls\n/checkpoints\n", "chat", "--model", "scripted", "--db", db(),
                "--session", "s1", "--workspace", dir.toString());
        Matcher m = Pattern.compile("(?m)^ +(\\d+) +\\d+  \\w").matcher(cps.out());
        List<Long> seqs = new java.util.ArrayList<>();
        while (m.find()) {
            seqs.add(Long.parseLong(m.group(1)));
        }
        assertThat(seqs).hasSizeGreaterThan(8);
        StringBuilder script = new StringBuilder();
        seqs.forEach(seq -> script.append("/rewind ").append(seq).append("\n/resume s1\n"));
        CliTest.Run r = run(script.toString(), "chat", "--model", "scripted", "--db", db(), "--session", "s1");
        assertThat(r.err()).isEmpty();
        for (long seq : seqs) {
            assertThat(r.out()).contains("Rewound to seq " + seq + ":");
        }
    }

    @Test
    void theDefaultStoreFollowsHomeInAChildJvm() throws Exception {
        Path home = Files.createDirectories(dir.resolve("home"));
        Path file = home.resolve(".threadline/threadline.db");
        Process list = child(home, "sessions", "list");
        assertThat(list.waitFor()).isEqualTo(1);
        assertThat(new String(list.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)).contains("no store at " + file);
        assertThat(home.resolve(".threadline")).doesNotExist();

        Process chat = child(home, "chat", "--model", "scripted", "--session", "s1");
        chat.getOutputStream().write("note hi\n/exit\n".getBytes(StandardCharsets.UTF_8));
        chat.getOutputStream().close();
        String out = new String(chat.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(chat.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(chat.waitFor()).as(err).isZero();
        assertThat(out).contains("Created a new store: " + file).contains("store: sqlite:" + file);
        assertThat(err).as("a plain run prints no warnings").isEmpty();
        assertThat(file).isRegularFile();
    }

    private static Process child(Path home, String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-Duser.home=" + home.resolveSibling("elsewhere"),
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("HOME", home.toString());
        pb.environment().remove("ANTHROPIC_API_KEY");
        pb.environment().remove("OPENAI_API_KEY");
        return pb.start();
    }
}
