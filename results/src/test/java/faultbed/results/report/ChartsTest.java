package faultbed.results.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Variant names are the charts' labels: every one is drawn whole, however long and however many. */
class ChartsTest {
  private static Map<String, double[]> dozen(String prefix) {
    Map<String, double[]> m = new LinkedHashMap<>();
    for (int i = 0; i < 12; i++) {
      m.put(prefix + i, new double[] {30 + i, 31 + i, 33 + i, 36 + i});
    }
    return m;
  }

  /** The SVG's text elements in drawing order. */
  private static List<String> texts(String svg) {
    List<String> out = new ArrayList<>();
    Matcher m = Pattern.compile("<text[^>]*>([^<]*)</text>").matcher(svg);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  /** Whether {@code label} is drawn, on one line or wrapped over consecutive lines. */
  private static boolean drawn(List<String> texts, String label) {
    for (int i = 0; i < texts.size(); i++) {
      StringBuilder joined = new StringBuilder();
      for (int j = i; j < Math.min(texts.size(), i + 3); j++) {
        joined.append(texts.get(j));
        if (joined.toString().equals(label)) {
          return true;
        }
      }
    }
    return false;
  }

  @Test
  void aDozenLongVariantNamesAreNotCut() {
    String prefix = "mapreduce-reduce-shuffle-connect-timeout-";
    String boxes = Charts.boxes(dozen(prefix));
    Map<String, Double> perVariant = new LinkedHashMap<>();
    dozen(prefix).keySet().forEach(v -> perVariant.put(v, 1.0));
    String bars = Charts.bars("b", "Backups per run", "backups", perVariant);
    for (String svg : new String[] {boxes, bars}) {
      List<String> texts = texts(svg);
      for (int i = 0; i < 12; i++) {
        assertTrue(drawn(texts, prefix + i), "label " + prefix + i + " drawn whole: " + texts);
      }
      assertFalse(svg.contains(prefix.substring(0, 10) + "...") || svg.contains("\u2026"), "no label cut short");
    }
  }

  @Test
  void aFewLongNamesWrapRatherThanEndInDots() {
    Map<String, double[]> two = new LinkedHashMap<>();
    two.put("expiry 15 s with notification count one and read timeout three seconds", new double[] {30, 31, 32});
    two.put("defaults", new double[] {29, 30, 31});
    String svg = Charts.boxes(two);
    assertFalse(svg.contains("...") || svg.contains("\u2026"), "no label cut short");
    assertTrue(svg.contains("defaults"));
  }
}
