package dev.threadline.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.threadline.core.json.Json;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code threadline serve --port 0} in a child JVM on the test class path, and a JDK HttpClient to talk to it. */
final class ServeProcess implements AutoCloseable {
    private static final Pattern URL = Pattern.compile(" at (http://\\S+)$");
    private static final Pattern KEY = Pattern.compile("\\(shown once\\): (tl_\\w+)$");
    static final HttpClient CLIENT = HttpClient.newHttpClient();

    final Process process;
    final URI url;
    final String createdKey;
    /** Everything the child printed, stdout and stderr merged, in order. */
    final List<String> output = java.util.Collections.synchronizedList(new ArrayList<>());
    private final Thread drain;

    ServeProcess(Path db) throws IOException {
        this("--db", db.toString());
    }

    /** {@code threadline serve --port 0} with these arguments, e.g. {@code --store URL} or {@code --config FILE}. */
    ServeProcess(String... args) throws IOException {
        this(List.of(), args);
    }

    /** {@code threadline serve --port 0 ARGS} in a JVM started with {@code jvmOptions} (e.g. a log level). */
    ServeProcess(List<String> jvmOptions, String... args) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), "serve", "--port", "0"));
        command.addAll(List.of(args));
        process = new ProcessBuilder(command).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        URI found = null;
        String key = null;
        String line;
        while ((line = out.readLine()) != null) {
            output.add(line);
            Matcher k = KEY.matcher(line);
            if (k.find()) {
                key = k.group(1);
            }
            Matcher m = URL.matcher(line);
            if (m.find()) {
                found = URI.create(m.group(1));
                break;
            }
        }
        if (found == null) {
            process.destroyForcibly();
            throw new IllegalStateException("threadline serve did not start: " + output);
        }
        url = found;
        createdKey = key;
        drain = Thread.ofVirtual().start(() -> out.lines().forEach(output::add)); // keep the pipe drained
    }

    /** Stops the server ({@link #close}) and returns all it printed, to its last line. */
    List<String> stopAndCollect() throws InterruptedException {
        close();
        if (!drain.join(Duration.ofSeconds(60))) {
            throw new IllegalStateException("the output of threadline serve did not end: " + output);
        }
        return List.copyOf(output);
    }

    record Response(int status, String body) {
        JsonNode json() {
            return Json.parse(body, "response");
        }
    }

    Response send(String key, String method, String path, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(url.resolve(path)).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        try {
            HttpResponse<String> r = CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
            return new Response(r.statusCode(), r.body());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** How a {@code threadline serve} that did not start ended: its exit code, stdout and stderr. */
    record Exit(int code, String out, String err) {}

    /** Runs {@code threadline serve} with exactly these arguments in a child JVM, expecting it to exit within a minute. */
    static Exit exit(String... args) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "serve"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        var out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        var err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("threadline serve " + String.join(" ", args) + " did not exit: " + out.getNow("") + err.getNow(""));
        }
        return new Exit(p.exitValue(), out.join(), err.join());
    }

    private static String read(java.io.InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Stops the server as an operator would (SIGTERM: a graceful shutdown) and waits for it to exit. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
