package dev.threadline.models;

import dev.threadline.models.http.HttpSettings;
import dev.threadline.models.http.Sleeper;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/** HTTP settings for tests: a sleeper that records delays instead of sleeping, no jitter, a fixed clock. */
public final class TestHttp {
    /** The "now" of the fixed clock. */
    public static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

    /** Records the delays it is asked to sleep, and returns at once. */
    public static final class RecordingSleeper implements Sleeper {
        private final List<Duration> delays = new ArrayList<>();

        @Override
        public synchronized void sleep(Duration delay) {
            delays.add(delay);
        }

        public synchronized List<Duration> delays() {
            return List.copyOf(delays);
        }
    }

    private TestHttp() {}

    public static HttpSettings settings(RecordingSleeper sleeper) {
        return HttpSettings.defaults().withSleeper(sleeper).withRandom(() -> 0.0)
                .withClock(Clock.fixed(NOW, ZoneOffset.UTC)).withTimeout(Duration.ofSeconds(20));
    }

    /** One SSE event with a type. */
    public static String event(String type, String json) {
        return "event: " + type + "\ndata: " + json + "\n\n";
    }

    /** One SSE event without a type (OpenAI's chunks). */
    public static String data(String json) {
        return "data: " + json + "\n\n";
    }
}
