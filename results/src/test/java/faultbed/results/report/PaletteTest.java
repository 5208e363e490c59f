package faultbed.results.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PaletteTest {
  @Test
  void aDozenVariantsAndMoreGetColoursOfTheirOwn() {
    Set<Color> seen = new HashSet<>();
    IntStream.range(0, 16).forEach(i -> seen.add(Palette.variant(i)));
    assertEquals(16, seen.size());
    assertTrue(Palette.DISTINCT >= 16);
  }
}
