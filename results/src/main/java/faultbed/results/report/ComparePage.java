package faultbed.results.report;

import faultbed.results.compare.SampleSet;
import faultbed.results.compare.SuiteComparison;
import faultbed.results.compare.VariantSample;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The page of a comparison: the verdicts as {@code compare} prints them, then both suites'
 * completion times side by side, each compared baseline variant next to its candidate, as box plots
 * and empirical CDFs. One file; everything on it comes from the two sample sets.
 */
public final class ComparePage {
  private ComparePage() {}

  public static Path write(Path file, SuiteComparison comparison, SampleSet baseline, SampleSet candidate) {
    Map<String, double[]> times = new LinkedHashMap<>();
    for (SuiteComparison.Pair p : comparison.pairs()) {
      String b = "baseline: " + p.baselineVariant();
      String c = "candidate: " + p.candidateVariant();
      times.putIfAbsent(b, baseline.variant(p.baselineVariant()).map(VariantSample::times).orElse(new double[0]));
      times.putIfAbsent(c, candidate.variant(p.candidateVariant()).map(VariantSample::times).orElse(new double[0]));
    }
    Html h = new Html();
    String title = "faultbed compare: " + baseline.source() + " against " + candidate.source();
    h.raw("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>")
        .raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>")
        .raw("<title>").text(title).raw("</title><style>").raw(SuiteReport.STYLE)
        .raw("pre{font-size:13px;background:#f8f8f8;padding:8px;overflow-x:auto}</style></head>\n<body>\n");
    h.element("h1", "faultbed compare");
    h.raw("<p class=\"meta\">").text("baseline: " + baseline.source() + " (scenario " + baseline.scenario()
        + "); candidate: " + candidate.source() + " (scenario " + candidate.scenario()
        + "). Times are job completion times of successful runs, in seconds.").raw("</p>\n");
    h.element("h2", comparison.regression() ? "Verdict: WORSE" : "Verdict: no regression");
    h.raw("<pre>").text(comparison.table()).raw("</pre>\n");
    h.element("h2", "Both sides, variant by variant");
    h.raw("<div class=\"pair\"><figure>").raw(Charts.boxes(times)).raw("</figure><figure>")
        .raw(Charts.ecdf(times)).raw("</figure></div>\n");
    h.raw("</body></html>\n");
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      return Files.writeString(file, h.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the compare page " + file, e);
    }
  }
}
