package faultbed.experiments;

import faultbed.experiments.scenario.Scenario;
import faultbed.experiments.scenario.Variant;
import faultbed.harness.ClusterSpec;
import faultbed.harness.HarnessException;
import faultbed.harness.RunSpec;
import faultbed.harness.Cluster;
import faultbed.harness.Clusters;
import faultbed.harness.observe.RunListener;
import faultbed.results.RecordStore;
import faultbed.results.RunHistory;
import faultbed.results.RunRecord;
import faultbed.results.SuiteSummary;
import faultbed.results.compare.SequentialSuite;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Runs a scenario's runs in the {@link RunOrder} (interleaved blocks, or one shard of them) and
 * writes one record per run plus the summary. Consecutive runs on the same cluster settings share
 * one cluster, reset between runs; a run that breaks the harness is recorded as such and the
 * cluster rebuilt, so one bad run loses nothing else.
 */
public final class SuiteRunner {
  /** What the runner reports as it goes. */
  public interface Progress extends RunListener {
    default void runStarting(int done, int total, String runId) {}

    default void runFinished(int done, int total, RunRecord record) {}

    default void note(String line) {}
  }

  private final Scenario scenario;
  private final RunOrder order;
  private final RecordStore store;
  private final Progress progress;

  private final java.util.Map<String, RunRecord> done;
  private final RunRecord.Provenance provenance;
  private final SequentialSuite sequential;

  public SuiteRunner(Scenario scenario, RecordStore store, Progress progress) {
    this(scenario, RunOrder.of(scenario), store, progress, java.util.Map.of(), null);
  }

  /**
   * Runs {@code order} (the scenario's, or a shard of it), keeping the records in {@code done} (by
   * run id) and running only the rest. Every new record carries {@code provenance} (null: none).
   */
  public SuiteRunner(Scenario scenario, RunOrder order, RecordStore store, Progress progress,
      java.util.Map<String, RunRecord> done, RunRecord.Provenance provenance) {
    this(scenario, order, store, progress, done, provenance, null);
  }

  /**
   * As above, and a suite that stops at the first block after which {@code sequential} (null: none)
   * says every candidate's verdict is decided; the blocks after it are not run.
   */
  public SuiteRunner(Scenario scenario, RunOrder order, RecordStore store, Progress progress,
      java.util.Map<String, RunRecord> done, RunRecord.Provenance provenance, SequentialSuite sequential) {
    this.sequential = sequential;
    this.provenance = provenance;
    this.scenario = scenario;
    this.order = order;
    this.store = store;
    this.progress = progress;
    this.done = java.util.Map.copyOf(done);
  }

  public SuiteSummary run() {
    // a suite of thousands of runs holds none of their records: they are in the store, read back for
    // the summary at the end; only a sequential suite, which decides on them after each block, keeps them
    List<RunRecord> decidingOn = new ArrayList<>();
    int ran = 0;
    int total = order.size();
    Cluster cluster = null;
    ClusterSpec current = null;
    boolean dirty = false;
    boolean finished = false;
    Consumer<String> log = progress::note;
    try {
      for (RunOrder.Slot slot : order.runs()) {
        Variant v = slot.variant();
        int i = slot.runIndex();
        RunRecord kept = done.get(slot.runId());
        if (kept != null) {
          ran++;
          if (sequential != null) {
            decidingOn.add(kept);
          }
          progress.runFinished(ran, total, kept);
          if (decided(slot, decidingOn)) {
            break;
          }
          continue;
        }
        if (cluster != null && !v.cluster().equals(current)) {
          cluster.close();
          cluster = null;
        }
        RunSpec spec = new RunSpec(scenario.name(), v.name(), i, scenario.runSeed(i), scenario.seed(),
            v.workload(), v.timeline(), v.speculation(), v.jobLimit(), v.pinned(), v.stealing(), v.placement());
        HarnessException warmupBroke = null;
        if (cluster == null) {
          progress.phase("starting a " + v.cluster().nodes() + "-node cluster");
          cluster = Clusters.start(v.cluster(), log);
          cluster.listen(progress);
          current = v.cluster();
          dirty = false;
          try {
            for (int w = 0; w < scenario.warmupRuns(); w++) {
              progress.phase("warm-up run " + (w + 1) + " of " + scenario.warmupRuns() + " (not recorded)");
              cluster.run(new RunSpec(scenario.name(), "warmup", w, scenario.runSeed(w), scenario.seed(),
                  v.workload(), faultbed.harness.timeline.Timeline.none(), v.speculation(), v.jobLimit())
                  .withStealing(v.stealing()).withPlacement(v.placement()));
              cluster.reset();
            }
          } catch (HarnessException e) {
            warmupBroke = e; // breaks the run it was for, which is recorded so, as a run that breaks is
          }
        } else if (dirty) {
          progress.phase("resetting the cluster");
          cluster.reset();
        }
        progress.runStarting(ran, total, spec.runId());
        RunRecord record;
        Cluster broke = null;
        try {
          if (warmupBroke != null) {
            throw new HarnessException("its cluster's warm-up run: " + warmupBroke.getMessage(), warmupBroke);
          }
          record = cluster.run(spec).inBlock(slot.block()).withProvenance(provenance);
          dirty = true;
        } catch (HarnessException e) {
          record = broken(spec, cluster, e).inBlock(slot.block()).withProvenance(provenance);
          broke = cluster;
          cluster = null;
        }
        try {
          store.write(record);
        } finally {
          // after the record is kept: what broke the run (an engine that never answers again) may
          // fail the close in turn, and end the suite
          if (broke != null) {
            broke.close();
          }
        }
        ran++;
        if (sequential != null) {
          decidingOn.add(record);
        }
        progress.runFinished(ran, total, record);
        if (decided(slot, decidingOn)) {
          break;
        }
      }
      finished = true;
    } finally {
      if (cluster != null) {
        progress.phase("stopping the cluster");
        cluster.close();
      }
      if (ran > 0) {
        try {
          store.writeSummary(SuiteSummary.of(suiteRecords()));
        } catch (RecordStore.NotWritten e) {
          // the summary is made again from the records by report and by --resume; what stopped the
          // suite (the same full disk, most often) is what to say
          if (finished) {
            throw e;
          }
        }
      }
    }
    return SuiteSummary.of(suiteRecords());
  }

  /** This suite's records as the store holds them, in the suite's order. */
  private List<RunRecord> suiteRecords() {
    java.util.Map<String, Integer> position = new java.util.HashMap<>();
    for (RunOrder.Slot slot : order.runs()) {
      position.putIfAbsent(slot.runId(), position.size());
    }
    return store.readAll().stream().filter(r -> position.containsKey(r.runId()))
        .sorted(java.util.Comparator.comparingInt(r -> position.get(r.runId()))).toList();
  }

  /**
   * Whether a sequential suite's verdict is decided once {@code slot} ran: checked after every whole
   * block (a look is made when the paired blocks reach its count, which a block whose jobs both
   * failed delays), as compare will judge the records again.
   */
  private boolean decided(RunOrder.Slot slot, List<RunRecord> records) {
    if (sequential == null || slot.block().position() != slot.block().size() - 1) {
      return false;
    }
    List<SequentialSuite.Result> results = sequential.decide(records);
    if (!SequentialSuite.ended(results)) {
      return false;
    }
    progress.note("sequential: decided after block " + (slot.block().index() + 1) + "; the remaining blocks are not run");
    results.forEach(r -> progress.note("  " + r.describe()));
    return true;
  }

  /** The record of a run the harness could not complete: kept, so the suite's count stays honest. */
  private static RunRecord broken(RunSpec spec, Cluster cluster, Exception e) {
    return new RunHistory(spec.runId(), spec.scenario(), spec.variant(), spec.runIndex(), spec.seed(),
        java.time.Instant.now().toString())
        .append(new RunHistory.ClusterSeen(cluster.info(), List.of()))
        .append(new RunHistory.WorkloadMade(new RunRecord.WorkloadInfo(spec.workload().type(),
            spec.workload().parameters(), 0, spec.dataSeed())))
        .note("harness error: " + e.getMessage()).record();
  }
}
