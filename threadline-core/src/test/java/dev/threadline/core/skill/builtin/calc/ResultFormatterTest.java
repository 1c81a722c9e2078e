package dev.threadline.core.skill.builtin.calc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ResultFormatterTest {

    @Test
    void wholeNumbersHaveNoFraction() {
        assertThat(ResultFormatter.format(20.0)).isEqualTo("20");
        assertThat(ResultFormatter.format(-3.0)).isEqualTo("-3");
        assertThat(ResultFormatter.format(-0.0)).isEqualTo("0");
        assertThat(ResultFormatter.format(9007199254740992d)).isEqualTo("9007199254740992");
    }

    @Test
    void floatingPointNoiseIsTrimmed() {
        assertThat(ResultFormatter.format(0.1 + 0.2)).isEqualTo("0.3");
        assertThat(ResultFormatter.format(1.1 * 3)).isEqualTo("3.3");
        assertThat(ResultFormatter.format(0.000123)).isEqualTo("0.000123");
    }

    @Test
    void extremeMagnitudesUseScientificNotation() {
        assertThat(ResultFormatter.format(1.5e20)).isEqualTo("1.5e+20");
        assertThat(ResultFormatter.format(-2.5e-9)).isEqualTo("-2.5e-9");
        assertThat(ResultFormatter.format(1e-7)).isEqualTo("1e-7");
        assertThat(ResultFormatter.format(123456789.123)).isEqualTo("123456789.123");
    }

    @Test
    void nonFiniteValuesHaveNames() {
        assertThat(ResultFormatter.format(Double.NaN)).isEqualTo("NaN");
        assertThat(ResultFormatter.format(Double.NEGATIVE_INFINITY)).isEqualTo("-Infinity");
    }
}
