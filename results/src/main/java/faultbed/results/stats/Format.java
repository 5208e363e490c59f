package faultbed.results.stats;

import java.math.BigDecimal;
import java.util.Locale;

/** Numbers as the terminal output writes them, the same in every locale. */
public final class Format {
  private Format() {}

  /** A p-value to three significant digits: 0.0556, 1, 3.97e-05; "-" for none. */
  public static String p(double p) {
    if (Double.isNaN(p)) {
      return "-";
    }
    String s = String.format(Locale.ROOT, "%.3g", p);
    int e = s.indexOf('e');
    String mantissa = e < 0 ? s : s.substring(0, e);
    if (mantissa.contains(".")) {
      mantissa = mantissa.replaceFirst("0+$", "").replaceFirst("\\.$", "");
    }
    return e < 0 ? mantissa : mantissa + s.substring(e);
  }

  /** A number as a user writes it: 0.05, 10, 4.5. */
  public static String plain(double value) {
    return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
  }

  /** A ratio as "x1.072". */
  public static String ratio(double r) {
    return String.format(Locale.ROOT, "x%.3f", r);
  }
}
