package faultbed.results.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import faultbed.results.RecordStore;
import faultbed.results.SuiteSummary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every published suite still reads, summarises and classifies as it was published: its records,
 * read by today's code, give its committed {@code summary.json} and {@code runs.csv} (each run's
 * group, recovery, mechanisms and evidence). A change to the record's shape or to what the analysis
 * reads of it that would re-judge a published run fails here.
 */
class PublishedRecordsTest {
  private static final Path PUBLISHED = Path.of("..", "experiments", "published");
  /**
   * Suites published as rows only: simulated, deterministic, their records too large to keep and
   * given again by their scenario (experiments' SimPublishedRowsTest runs each one's first block
   * and checks its rows; SequentialSimPublishedTest judges the sequential stage's rows again by its
   * design).
   */
  private static final java.util.Set<Path> ROWS_ONLY = java.util.Set.of(PUBLISHED.resolve(Path.of("gate-power", "sim")),
      PUBLISHED.resolve("sequential-sim"), PUBLISHED.resolve("dinu-ng-seed-scale-sim"),
      PUBLISHED.resolve("late-stragglers-ec2-sim"), PUBLISHED.resolve("late-heterogeneous-ec2-sim"));

  @TestFactory
  Stream<DynamicTest> everyPublishedSuiteReadsAsPublished() throws IOException {
    assumeTrue(Files.isDirectory(PUBLISHED), "no published suites beside this module");
    List<Path> suites;
    try (Stream<Path> walk = Files.walk(PUBLISHED)) {
      suites = walk.filter(p -> p.getFileName().toString().equals(SuiteReport.CSV)).map(Path::getParent)
          .filter(dir -> !ROWS_ONLY.contains(dir)).sorted().toList();
    }
    return suites.stream().map(dir -> DynamicTest.dynamicTest(PUBLISHED.relativize(dir).toString(), () -> {
      List<ReportRow> rows = SuiteReport.rows(dir);
      assertEquals(Files.readString(dir.resolve(SuiteReport.CSV)), RunsCsv.of(rows), dir + ": runs.csv");
      Path summary = dir.resolve(RecordStore.SUMMARY);
      if (Files.exists(summary)) {
        JsonNode committed = RecordStore.json().readTree(summary.toFile());
        JsonNode now = RecordStore.json().valueToTree(SuiteSummary.of(rows.stream().map(ReportRow::record).toList()));
        assertEquals("", differences(committed, now, "summary.json"), dir.toString());
      }
    }));
  }

  /**
   * Where two summaries differ, or "": numbers within a part in 10^9 (a summary written by an
   * earlier run sums in another order), variants matched by name (it lists them in run order).
   */
  static String differences(JsonNode was, JsonNode is, String at) {
    if (was.isNumber() && is.isNumber()) {
      double a = was.asDouble();
      double b = is.asDouble();
      return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.max(Math.abs(a), Math.abs(b))) ? "" : at + ": " + was + " -> " + is + "\n";
    }
    if (was.isArray() && is.isArray() && was.size() == is.size()) {
      StringBuilder out = new StringBuilder();
      for (int i = 0; i < was.size(); i++) {
        JsonNode w = was.get(i);
        JsonNode match = is.get(i);
        if (w.has("variant")) {
          for (JsonNode candidate : is) {
            if (candidate.path("variant").equals(w.get("variant"))) {
              match = candidate;
            }
          }
        }
        out.append(differences(w, match, at + "[" + i + "]"));
      }
      return out.toString();
    }
    if (was.isObject() && is.isObject()) {
      StringBuilder out = new StringBuilder();
      java.util.Set<String> names = new java.util.TreeSet<>();
      was.fieldNames().forEachRemaining(names::add);
      is.fieldNames().forEachRemaining(names::add);
      for (String n : names) {
        out.append(differences(was.path(n), is.path(n), at + "." + n));
      }
      return out.toString();
    }
    return was.equals(is) || was.asText().equals(is.asText()) ? "" : at + ": " + was + " -> " + is + "\n";
  }
}
