package dev.threadline.harness.servers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Each mode of {@link FaultProxy}, seen from a plain socket client, in front of an echo server. */
class FaultProxyTest {
    private ServerSocket echo;
    private FaultProxy proxy;

    @BeforeEach
    void start() throws IOException {
        echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(() -> {
            while (true) {
                Socket s;
                try {
                    s = echo.accept();
                } catch (IOException e) {
                    return;
                }
                Thread.ofVirtual().start(() -> {
                    try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                        in.transferTo(out);
                    } catch (IOException e) {
                        // the client went away
                    }
                });
            }
        });
        proxy = FaultProxy.start("127.0.0.1", echo.getLocalPort());
    }

    @AfterEach
    void stop() throws IOException {
        proxy.close();
        echo.close();
    }

    private Socket client() throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
        s.setSoTimeout(5_000);
        return s;
    }

    private static String roundTrip(Socket s, String text) throws IOException {
        s.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
        return read(s, text.length());
    }

    private static String read(Socket s, int n) throws IOException {
        byte[] b = s.getInputStream().readNBytes(n);
        return new String(b, StandardCharsets.UTF_8);
    }

    @Test
    void passForwardsBothWays() throws IOException {
        try (Socket s = client()) {
            assertThat(roundTrip(s, "hello")).isEqualTo("hello");
        }
        assertThat(proxy.accepted()).isEqualTo(1);
    }

    @Test
    void delayHoldsEachChunkBothWaysAndPassEndsIt() throws IOException {
        try (Socket s = client()) {
            roundTrip(s, "warm");
            proxy.delay(Duration.ofMillis(300));
            long t0 = System.nanoTime();
            assertThat(roundTrip(s, "slow")).isEqualTo("slow");
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isGreaterThanOrEqualTo(Duration.ofMillis(600));
            proxy.pass();
            t0 = System.nanoTime();
            assertThat(roundTrip(s, "fast")).isEqualTo("fast");
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofMillis(300));
        }
    }

    @Test
    void blackholeAnswersNothingUntilHealedThenTheHeldBytesGoOn() throws IOException {
        try (Socket open = client()) {
            roundTrip(open, "warm");
            proxy.blackhole();
            open.getOutputStream().write("held".getBytes(StandardCharsets.UTF_8));
            open.setSoTimeout(300);
            assertThatThrownBy(() -> open.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
            try (Socket fresh = client()) { // accepted, but nothing behind it
                fresh.getOutputStream().write("new".getBytes(StandardCharsets.UTF_8));
                fresh.setSoTimeout(300);
                assertThatThrownBy(() -> fresh.getInputStream().read()).isInstanceOf(SocketTimeoutException.class);
                proxy.pass();
                open.setSoTimeout(5_000);
                fresh.setSoTimeout(5_000);
                assertThat(read(open, 4)).isEqualTo("held");
                assertThat(read(fresh, 3)).isEqualTo("new");
            }
        }
    }

    @Test
    void dropClosesOpenAndNewConnectionsWithAnEnd() throws IOException {
        try (Socket open = client()) {
            roundTrip(open, "warm");
            proxy.drop();
            assertThat(open.getInputStream().read()).isEqualTo(-1);
            try (Socket fresh = client()) {
                assertThat(fresh.getInputStream().read()).isEqualTo(-1);
            }
            proxy.pass();
            try (Socket healed = client()) {
                assertThat(roundTrip(healed, "back")).isEqualTo("back");
            }
        }
        assertThat(proxy.open()).isLessThanOrEqualTo(1);
    }

    @Test
    void resetResetsOpenAndNewConnections() throws IOException {
        try (Socket open = client()) {
            roundTrip(open, "warm");
            proxy.reset();
            assertThatThrownBy(() -> open.getInputStream().read()).isInstanceOf(SocketException.class)
                    .hasMessageContaining("reset");
            try (Socket fresh = client()) {
                assertThatThrownBy(() -> fresh.getInputStream().read()).isInstanceOf(SocketException.class)
                        .hasMessageContaining("reset");
            }
            proxy.pass();
            try (Socket healed = client()) {
                assertThat(roundTrip(healed, "back")).isEqualTo("back");
            }
        }
    }

    @Test
    void closeEndsEveryConnectionAndTheListener() throws IOException {
        Socket open = client();
        roundTrip(open, "warm");
        proxy.close();
        assertThatThrownBy(() -> {
            int b = open.getInputStream().read();
            if (b == -1) {
                throw new SocketException("ended"); // a FIN is fine too: the connection is gone either way
            }
        }).isInstanceOf(SocketException.class);
        open.close();
        assertThatThrownBy(() -> new Socket(InetAddress.getLoopbackAddress(), proxy.port()).close()).isInstanceOf(IOException.class);
        assertThat(proxy.open()).isZero();
    }

    @Test
    void badTargetsAndDelaysAreRefused() {
        assertThatThrownBy(() -> FaultProxy.start(" ", 5432)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("host:port");
        assertThatThrownBy(() -> FaultProxy.start("127.0.0.1", 0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1-65535");
        assertThatThrownBy(() -> proxy.delay(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("delay");
        assertThat(proxy.mode()).isEqualTo(FaultProxy.Mode.PASS);
    }
}
