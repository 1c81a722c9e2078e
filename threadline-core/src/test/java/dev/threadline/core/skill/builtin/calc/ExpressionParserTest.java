package dev.threadline.core.skill.builtin.calc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class ExpressionParserTest {

    private static double eval(String s) {
        return ExpressionParser.evaluate(s);
    }

    private static String calc(String s) {
        return ResultFormatter.format(eval(s));
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', value = {
        "1+2|3", "(2+3)*4|20", "2+3*4|14", "10-4-3|3", "100/10/5|2", "7%3|1", "-7%3|-1",
        "2^3|8", "2^3^2|512", "-2^2|-4", "(-2)^2|4", "2^-1|0.5", "2**10|1024", "--3|3", "+-+3|-3",
        "1.5*2|3", ".5+.25|0.75", "1e3|1000", "2.5E-3*1000|2.5", "1e+2|100", "3 × 4 ÷ 2|6",
        "0.1+0.2|0.3", "1/3|0.333333333333", "2/3|0.666666666667", "10/4|2.5",
        "sqrt(16)|4", "sqrt(2)^2|2", "abs(-3.5)|3.5", "round(2.5)|3", "round(-2.5)|-3", "round(3.14159, 2)|3.14",
        "floor(-1.5)|-2", "ceil(1.2)|2", "min(3, 1, 2)|1", "max(3, 1, 2)|3", "max(4)|4",
        "ln(e)|1", "log(1000)|3", "log(8, 2)|3", "exp(0)|1", "sin(0)|0", "cos(pi)|-1", "tan(0)|0",
        "pi|3.14159265359", "PI * 2|6.28318530718", "Sqrt(9)|3", "2*(3+(4-1))*2|24",
        "2^40|1099511627776", "1e20|1e+20", "1/1e9|1e-9", "-0|0", "  42  |42",
    })
    void evaluates(String expression, String expected) {
        assertThat(calc(expression)).isEqualTo(expected);
    }

    @Test
    void trigonometryIsInRadians() {
        assertThat(eval("sin(pi/2)")).isCloseTo(1.0, within(1e-15));
        assertThat(eval("cos(pi/3)")).isCloseTo(0.5, within(1e-15));
    }

    private static void fails(String expression, String reason, int position) {
        assertThatThrownBy(() -> eval(expression))
                .isInstanceOfSatisfying(ExpressionException.class, e -> {
                    assertThat(e.reason()).contains(reason);
                    assertThat(e.position()).as("position").isEqualTo(position);
                    if (position > 0) {
                        assertThat(e.getMessage()).endsWith(" at position " + position);
                    }
                });
    }

    @Test
    void divisionAndModuloByZeroNameTheOperator() {
        fails("1/0", "division by zero", 2);
        fails("5 % (2-2)", "modulo by zero", 3);
        fails("1/(3-3)", "division by zero", 2);
    }

    @Test
    void unknownNamesAndFunctions() {
        fails("2*x", "unknown name 'x'", 3);
        fails("foo(1)", "unknown function 'foo'", 1);
        fails("foo(1)", "known functions: abs, ceil", 1);
        fails("sqrt + 1", "function 'sqrt' needs its arguments in parentheses", 1);
        fails("pi(2)", "'pi' is a constant, not a function", 1);
    }

    @Test
    void unbalancedParentheses() {
        fails("(2+3", "unbalanced parenthesis: '(' is never closed", 1);
        fails("2+3)", "unbalanced parenthesis: ')' has no matching '('", 4);
        fails("sqrt(4", "'(' is never closed", 5);
        fails("(1 2)", "expected ')' to close the '(' at position 1 but found '2'", 4);
        fails("()", "expected a number, a name or '(' but found ')'", 2);
    }

    @Test
    void trailingAndIncompleteInput() {
        fails("2 3", "unexpected '3' (expected an operator or the end of the expression)", 3);
        fails("2+", "incomplete expression", 3);
        fails("*2", "found '*'", 1);
        fails("1,2", "unexpected ','", 2);
        fails("2 $ 3", "unexpected character '$'", 3);
        fails("1\u00002", "unexpected character U+0000", 2);
    }

    @Test
    void emptyTooLongAndTooDeep() {
        fails("", "expression is empty", 0);
        fails("   ", "expression is empty", 0);
        fails(null, "expression is empty", 0);
        fails("1+".repeat(500) + "1", "too long: 1001 characters, the limit is 1000", 1001);
        assertThat(calc("1+".repeat(499) + "1")).isEqualTo("500");
        fails("(".repeat(150) + "1" + ")".repeat(150), "too deeply nested (more than 100 levels)", 101);
        fails("-".repeat(200) + "1", "too deeply nested", 101);
        assertThat(calc("(".repeat(90) + "1" + ")".repeat(90))).isEqualTo("1");
    }

    @Test
    void functionArityAndDomain() {
        fails("sqrt()", "sqrt takes 1 argument but got no arguments; use sqrt(x)", 1);
        fails("sqrt(1, 2)", "sqrt takes 1 argument but got 2 arguments", 1);
        fails("min()", "min takes at least 1 argument", 1);
        fails("log(1, 2, 3)", "log takes 1 or 2 arguments but got 3", 1);
        fails("1 + sqrt(-4)", "sqrt is only defined for numbers that are not negative, got -4", 5);
        fails("ln(0)", "ln is only defined for positive numbers, got 0", 1);
        fails("log(8, 1)", "log's base must be positive and not 1", 1);
        fails("round(1.5, 0.5)", "round's digits must be a whole number from 0 to 15", 1);
    }

    @Test
    void nonFiniteResultsAreRefused() {
        fails("1e308*10", "the result of '*' is too large (overflow)", 6);
        fails("1e999", "number 1e999 is too large", 1);
        fails("(-8)^(1/3)", "the result of '^' is not a real number", 5);
        fails("0^-1", "the result of '^' is too large", 2);
        fails("exp(1000)", "the result of 'exp' is too large", 1);
    }
}
