package dev.threadline.examples.springboot;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/** Starts the application as a user would (a free port, a SQLite file of its own) and talks to it over HTTP. */
class MainTest {
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void theSecondRequestSeesTheFirstAndARestartKeepsBoth(@TempDir Path dir) throws Exception {
        String[] args = {"--server.port=0", "--threadline.store=sqlite:" + dir.resolve("chat.db")};
        try (ConfigurableApplicationContext app = SpringApplication.run(Main.class, args)) {
            int port = ((WebServerApplicationContext) app).getWebServer().getPort();
            assertEquals("you said 1: my name is Ada", post(port, "c1", "my name is Ada"));
            assertEquals("you said 2: my name is Ada | what is my name?", post(port, "c1", "what is my name?"));
            assertEquals("you said 1: hello", post(port, "c2", "hello"));
        }
        try (ConfigurableApplicationContext app = SpringApplication.run(Main.class, args)) { // a restart on the same file
            int port = ((WebServerApplicationContext) app).getWebServer().getPort();
            assertEquals("you said 3: my name is Ada | what is my name? | still there?", post(port, "c1", "still there?"));
        }
    }

    private String post(int port, String conversation, String message) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/chat/" + conversation))
                .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString(message)).build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return response.body();
    }
}
