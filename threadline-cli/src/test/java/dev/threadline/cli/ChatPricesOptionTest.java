package dev.threadline.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code threadline chat --prices FILE}: /usage shows what the session cost; a bad file is one line and no store. */
class ChatPricesOptionTest {
    @TempDir
    Path dir;

    private int run(String input, StringWriter out, StringWriter err, String... args) {
        return Main.run(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), new PrintWriter(out, true),
                new PrintWriter(err, true), args);
    }

    @Test
    void usageShowsTheCostAtTheFilesPrices() throws Exception {
        Path prices = Files.writeString(dir.resolve("prices.json"), "{\"scripted\": {\"input\": 1000000, \"output\": 0}}");
        StringWriter out = new StringWriter();
        assertThat(run("what is 2+2\n/usage\n", out, new StringWriter(), "chat", "--db", dir.resolve("c.db").toString(),
                "--session", "c1", "--prices", prices.toString())).isZero();
        // one currency unit per input token: the cost is the input tokens the session used
        Matcher m = Pattern.compile("input (\\d[\\d,]*) .* cost (\\d+)").matcher(out.toString());
        assertThat(m.find()).as(out.toString()).isTrue();
        assertThat(Long.parseLong(m.group(2))).isEqualTo(Long.parseLong(m.group(1).replace(",", ""))).isPositive();
        StringWriter plain = new StringWriter();
        run("what is 2+2\n/usage\n", plain, new StringWriter(), "chat", "--db", dir.resolve("d.db").toString(), "--session", "d1");
        assertThat(plain.toString()).contains("total ").doesNotContain("cost");
    }

    @Test
    void aBadPricesFileIsOneLineNamingItAndOpensNoStore() throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.json"), "{\"scripted\": {\"input\": 3}}");
        Path db = dir.resolve("x.db");
        StringWriter err = new StringWriter();
        assertThat(run("", new StringWriter(), err, "chat", "--db", db.toString(), "--prices", bad.toString())).isNotZero();
        assertThat(err.toString()).contains("--prices").contains("prices.scripted.output");
        assertThat(Files.exists(db)).isFalse();
        StringWriter missing = new StringWriter();
        assertThat(run("", new StringWriter(), missing, "chat", "--db", db.toString(), "--prices", dir.resolve("none.json").toString()))
                .isNotZero();
        assertThat(missing.toString()).contains("cannot read");
        assertThat(Files.exists(db)).isFalse();
    }
}
