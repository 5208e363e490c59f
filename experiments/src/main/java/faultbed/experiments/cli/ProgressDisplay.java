package faultbed.experiments.cli;

import faultbed.experiments.SuiteRunner;
import faultbed.results.RunRecord;
import java.io.PrintStream;
import java.util.List;

/**
 * The progress bar of {@code faultbed run}: one redrawn line on a terminal (runs done, current run,
 * phase, job progress); plain lines, one per phase, when output goes to a file or CI log. Each
 * finished run's line says how long the rest will take at this sitting's pace so far.
 */
final class ProgressDisplay implements SuiteRunner.Progress {
  private final PrintStream out;
  private final boolean terminal;
  private final java.util.function.LongSupplier nanos;
  private final long start;
  /** When this sitting's first run started and how many runs were done before it (a resumed suite's). */
  private long sittingStart = -1;
  private int doneBefore;
  private volatile int done;
  private volatile int total;
  private volatile String run = "";
  private volatile String phase = "";
  private volatile float map;
  private volatile float reduce;
  private long lastDraw;

  ProgressDisplay(PrintStream out, boolean terminal) {
    this(out, terminal, System::nanoTime);
  }

  ProgressDisplay(PrintStream out, boolean terminal, java.util.function.LongSupplier nanos) {
    this.out = out;
    this.terminal = terminal;
    this.nanos = nanos;
    this.start = nanos.getAsLong();
  }

  @Override
  public void runStarting(int done, int total, String runId) {
    if (sittingStart < 0) {
      sittingStart = nanos.getAsLong();
      doneBefore = done;
    }
    this.done = done;
    this.total = total;
    this.run = runId;
    this.map = 0;
    this.reduce = 0;
  }

  /** The most faults a finished run's line lists one by one. */
  private static final int LISTED_FAULTS = 4;

  @Override
  public void runFinished(int done, int total, RunRecord r) {
    this.done = done;
    String outcome = r.job() == null ? "harness error"
        : r.job().state() + String.format(" in %.1f s", r.completionSeconds().orElse(Double.NaN));
    StringBuilder faults = new StringBuilder();
    // a timeline of many faults (a disk rate on every node of a large cluster) is summed up, not listed
    List<RunRecord.FaultEvent> listed = r.faults().size() <= LISTED_FAULTS ? r.faults()
        : r.faults().subList(0, LISTED_FAULTS - 1);
    for (RunRecord.FaultEvent f : listed) {
      faults.append(String.format(", %s node %d at %s", f.kind(), f.node(),
          f.injectedMs() == null ? notInjected(f) : String.format("%.1f s", f.injectedMs() / 1000.0)));
      r.nodes().stream().filter(n -> n.index() == f.node()).findFirst().flatMap(RunRecord.NodeInfo::lostAt)
          .ifPresent(lost -> faults.append(String.format(" (LOST at %.1f s)", lost / 1000.0)));
    }
    if (listed.size() < r.faults().size()) {
      faults.append(", and ").append(r.faults().size() - listed.size()).append(" more faults (")
          .append(r.faults().subList(listed.size(), r.faults().size()).stream().map(RunRecord.FaultEvent::kind)
              .distinct().collect(java.util.stream.Collectors.joining(", "))).append(')');
    }
    clearLine();
    out.printf("[%d/%d] %s: %s%s%s%n", done, total, r.runId(), outcome, faults, timeLeft(done, total));
    draw(true);
  }

  /**
   * "; about 2 h 5 min left": the runs still to do at this sitting's mean wall time per run
   * (cluster resets and waits included); the mean, since the rest takes their sum.
   */
  private String timeLeft(int done, int total) {
    int ranHere = done - doneBefore;
    if (sittingStart < 0 || ranHere <= 0 || done >= total) {
      return "";
    }
    long seconds = Math.round((nanos.getAsLong() - sittingStart) / 1e9 / ranHere * (total - done));
    long minutes = Math.max(1, Math.round(seconds / 60.0));
    return minutes < 60 ? "; about " + minutes + " min left"
        : String.format("; about %d h %d min left", minutes / 60, minutes % 60);
  }

  /** A fault that never took effect, with the reason the harness met (the record keeps it too). */
  private static String notInjected(RunRecord.FaultEvent f) {
    String error = f.detail().get("error");
    return error == null ? "(not injected)" : "(not injected: " + error + ")";
  }

  @Override
  public void phase(String p) {
    this.phase = p;
    if (!terminal) {
      out.printf("  %s%s%n", run.isEmpty() ? "" : run + ": ", p);
    }
    draw(true);
  }

  @Override
  public void progress(float m, float r) {
    this.map = m;
    this.reduce = r;
    draw(false);
  }

  @Override
  public void note(String line) {
    clearLine();
    out.println("faultbed: " + line);
    draw(true);
  }

  private synchronized void draw(boolean force) {
    if (!terminal) {
      return;
    }
    long now = System.nanoTime();
    if (!force && now - lastDraw < 250_000_000L) {
      return;
    }
    lastDraw = now;
    int width = 20;
    int filled = total == 0 ? 0 : Math.min(width, done * width / total);
    String bar = "#".repeat(filled) + ".".repeat(width - filled);
    String jobPart = phase.startsWith("running") ? String.format(" map %3.0f%% reduce %3.0f%%", map * 100, reduce * 100) : "";
    String line = String.format("[%s] %d/%d runs  %s  %s%s  %ds", bar, done, total, run, phase, jobPart,
        (nanos.getAsLong() - start) / 1_000_000_000L);
    out.print("\r" + (line.length() > 118 ? line.substring(0, 118) : String.format("%-118s", line)));
    out.flush();
  }

  private void clearLine() {
    if (terminal) {
      out.print("\r" + " ".repeat(118) + "\r");
    }
  }

  void finish() {
    clearLine();
  }
}
