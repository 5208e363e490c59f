package faultbed.results.compare;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import faultbed.results.Distribution;
import faultbed.results.RecordStore;
import faultbed.results.stats.Bootstrap;
import faultbed.results.stats.QuantileIntervals;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A baseline to commit next to the code it guards: per variant the raw completion times and failure
 * count, each run with its index and block ({@code perRun}, so variants of one baseline file can
 * still be paired), plus a summary for people reading the file. Only the raw values are read back;
 * the summary is recomputed from them. Files written before {@code perRun} existed read as runs
 * without blocks.
 *
 * <pre>
 * { "format": "faultbed-baseline/1", "scenario": "ci", "source": "out/ci-2026-11-21T10-00-00",
 *   "variants": [ { "variant": "crash", "runs": 10, "failed": 0,
 *                   "completionSeconds": [45.2, 47.8, ...],
 *                   "perRun": [ { "index": 0, "block": 3, "seconds": 45.2 }, ... ],
 *                   "summary": { "n": 10, "median": 47.8, ... },
 *                   "intervals": { "median": { "low": 46.1, "high": 49.0 }, ... } } ] }
 * </pre>
 */
public record BaselineFile(String format, String scenario, String source, List<Entry> variants) {
  public static final String FORMAT = "faultbed-baseline/1";

  /** One variant: its sample plus derived figures. */
  public record Entry(String variant, int runs, int failed, List<Double> completionSeconds,
      List<VariantSample.Run> perRun, Distribution summary, QuantileIntervals intervals) {}

  public static BaselineFile of(SampleSet samples) {
    // only the folder's name: a committed baseline must not carry the machine's paths
    java.nio.file.Path name = java.nio.file.Path.of(samples.source()).getFileName();
    return new BaselineFile(FORMAT, samples.scenario(), name == null ? samples.source() : name.toString(),
        samples.variants().stream()
        .map(v -> new Entry(v.variant(), v.runs().size(), v.failed(), v.completionSeconds(), v.runs(),
            Distribution.of(v.times()), QuantileIntervals.of(v.times(), Bootstrap.DEFAULT)))
        .toList());
  }

  public void write(Path file) {
    try {
      Path parent = file.toAbsolutePath().getParent();
      Files.createDirectories(parent);
      Files.writeString(file, RecordStore.json().writeValueAsString(this) + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  static SampleSet read(Path file, Path origin, JsonNode json) {
    BaselineFile b;
    try {
      b = RecordStore.json().treeToValue(json, BaselineFile.class);
    } catch (JsonProcessingException e) {
      throw new SampleSet.InvalidSampleSource(file + ": not a valid baseline file: " + e.getOriginalMessage());
    }
    if (b.variants() == null || b.variants().isEmpty()) {
      throw new SampleSet.InvalidSampleSource(file + ": variants: expected at least one variant");
    }
    try {
      return new SampleSet(file.toString(), origin, b.scenario(), b.variants().stream().map(BaselineFile::sample).toList());
    } catch (IllegalArgumentException e) {
      throw new SampleSet.InvalidSampleSource(file + ": variants: " + e.getMessage());
    }
  }

  private static VariantSample sample(Entry e) {
    List<Double> times = e.completionSeconds() == null ? List.of() : e.completionSeconds();
    if (times.contains(null) || e.perRun() != null && e.perRun().contains(null)) {
      throw new IllegalArgumentException(e.variant() + ": expected no null in completionSeconds or perRun");
    }
    if (e.runs() != e.failed() + times.size()) {
      throw new IllegalArgumentException(e.variant() + ": runs " + e.runs() + " != failed " + e.failed()
          + " + completion times " + times.size());
    }
    if (e.perRun() == null) {
      return VariantSample.unblocked(e.variant(), times, e.failed());
    }
    VariantSample v = new VariantSample(e.variant(), e.perRun());
    if (!v.completionSeconds().equals(times) || v.failed() != e.failed()) {
      throw new IllegalArgumentException(e.variant() + ": perRun: expected the runs of completionSeconds and"
          + " failed, got " + v.completionSeconds().size() + " times and " + v.failed() + " failed");
    }
    return v;
  }
}
