package faultbed.results.report;

import faultbed.results.classify.DinuNgGroup;
import java.awt.Color;

/**
 * Colours that stay apart on screen and in print: one per group, and for variants the twenty of
 * Tableau's "category20" (ten hues, then their light tints), so a dozen variants, a threshold sweep's
 * size, never share a colour.
 */
final class Palette {
  private static final Color[] CYCLE = {new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c),
      new Color(0xd62728), new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2),
      new Color(0x17becf), new Color(0xbcbd22), new Color(0x7f7f7f),
      new Color(0xaec7e8), new Color(0xffbb78), new Color(0x98df8a), new Color(0xff9896), new Color(0xc5b0d5),
      new Color(0xc49c94), new Color(0xf7b6d2), new Color(0x9edae5), new Color(0xdbdb8d), new Color(0xc7c7c7)};

  /** How many variants get a colour of their own. */
  static final int DISTINCT = CYCLE.length;

  private Palette() {}

  static Color variant(int index) {
    return CYCLE[index % CYCLE.length];
  }

  static Color group(DinuNgGroup g) {
    return switch (g) {
      case G1 -> new Color(0x1f77b4);
      case G2 -> new Color(0x17becf);
      case G3 -> new Color(0x2ca02c);
      case G4 -> new Color(0xd62728);
      case G5 -> new Color(0x9467bd);
      case G6 -> new Color(0xff7f0e);
      case G7 -> new Color(0xe377c2);
      case AM_LOST -> new Color(0x8c564b);
      case G8 -> new Color(0x000000);
      case NO_FAULT -> new Color(0xbcbd22);
      case NO_NODE_FAILURE -> new Color(0xc7c7c7);
      case UNCLASSIFIED -> new Color(0x7f7f7f);
    };
  }

  static String hex(Color c) {
    return String.format("#%06x", c.getRGB() & 0xffffff);
  }
}
