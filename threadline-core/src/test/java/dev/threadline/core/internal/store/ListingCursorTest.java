package dev.threadline.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.threadline.core.error.InvalidInputException;
import org.junit.jupiter.api.Test;

/** The one listing cursor every store hands out: it reads back, and refuses another query's, a tampered or a cut one. */
class ListingCursorTest {

    @Test
    void aCursorReadsBackForItsOwnQuery() {
        ListingCursor c = new ListingCursor(-1_764_000_000_123_456_789L, "s.1:a@b-c");
        assertThat(ListingCursor.parse(c.format("0badcafe"), "0badcafe")).isEqualTo(c);
    }

    @Test
    void anotherQuerysCursorIsRefusedSayingSo() {
        String text = new ListingCursor(5, "s1").format("aaaaaaaa");
        assertThatThrownBy(() -> ListingCursor.parse(text, "bbbbbbbb")).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("belongs to another query");
    }

    @Test
    void aTamperedCutOrMadeUpCursorIsRefused() {
        String text = new ListingCursor(5, "s1").format("aaaaaaaa");
        for (String bad : new String[] {"", ".", "aaaaaaaa.5.czE", text.replace(".5.", ".6."), text.substring(0, text.length() - 1),
                text + ".x", "aaaaaaaa.x.czE.00000000"}) {
            assertThatThrownBy(() -> ListingCursor.parse(bad, "aaaaaaaa")).as("'%s'", bad).isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("is not a cursor this store returned");
        }
    }

    @Test
    void theOrderIsNewestFirstThenById() {
        ListingCursor c = new ListingCursor(10, "m");
        assertThat(c.before(9, "a")).isTrue();
        assertThat(c.before(10, "n")).isTrue();
        assertThat(c.before(10, "m")).isFalse();
        assertThat(c.before(10, "a")).isFalse();
        assertThat(c.before(11, "z")).isFalse();
    }
}
