package dev.threadline.core.skill.builtin.calc;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

class ExpressionParserProperties {

    @Property
    void additionOfIntegersIsExact(@ForAll @IntRange(min = -1_000_000_000, max = 1_000_000_000) int a,
                                   @ForAll @IntRange(min = -1_000_000_000, max = 1_000_000_000) int b) {
        assertThat(ResultFormatter.format(ExpressionParser.evaluate(a + "+" + b))).isEqualTo(Long.toString((long) a + b));
        assertThat(ResultFormatter.format(ExpressionParser.evaluate(a + " - " + b))).isEqualTo(Long.toString((long) a - b));
    }

    @Property
    void multiplicationOfIntegersIsExact(@ForAll @IntRange(min = -10_000_000, max = 10_000_000) int a,
                                         @ForAll @IntRange(min = -10_000_000, max = 10_000_000) int b) {
        assertThat(ResultFormatter.format(ExpressionParser.evaluate("(" + a + ")*(" + b + ")")))
                .isEqualTo(Long.toString((long) a * b));
    }

    @Property
    void precedenceMatchesJava(@ForAll @IntRange(min = -1000, max = 1000) int a,
                               @ForAll @IntRange(min = -1000, max = 1000) int b,
                               @ForAll @IntRange(min = 1, max = 1000) int c) {
        assertThat(ExpressionParser.evaluate(a + "+" + b + "*" + c)).isEqualTo((double) a + (double) b * c);
        assertThat(ExpressionParser.evaluate(a + "-" + b + "%" + c)).isEqualTo((double) a - (double) b % c);
    }

    @Property(tries = 2000)
    void randomTextOnlyEverFailsWithExpressionException(@ForAll("expressionish") String input) {
        try {
            double value = ExpressionParser.evaluate(input);
            assertThat(Double.isFinite(value)).as("finite result for %s", input).isTrue();
        } catch (ExpressionException e) {
            assertThat(e.getMessage()).isNotBlank();
            assertThat(e.position()).isBetween(0, Math.max(1, input.length() + 1));
        }
    }

    @Property(tries = 500)
    void arbitraryUnicodeOnlyEverFailsWithExpressionException(@ForAll String input) {
        try {
            ExpressionParser.evaluate(input);
        } catch (ExpressionException e) {
            assertThat(e.getMessage()).isNotBlank();
        }
    }

    @Provide
    Arbitrary<String> expressionish() {
        Arbitrary<String> pieces = Arbitraries.of("1", "0", "2.5", "1e3", ".5", "+", "-", "*", "/", "%", "^", "**",
                "(", ")", ",", " ", "sqrt", "min", "max", "log", "pi", "e", "x", "9e999", "$", "..", "round");
        return pieces.list().ofMaxSize(40).map(l -> String.join("", l));
    }
}
