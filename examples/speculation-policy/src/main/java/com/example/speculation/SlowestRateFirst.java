package com.example.speculation;

import faultbed.schedulers.AttemptSnapshot;
import faultbed.schedulers.Backup;
import faultbed.schedulers.JobSnapshot;
import faultbed.schedulers.PolicySettings;
import faultbed.schedulers.SpeculationPolicy;
import faultbed.schedulers.TaskSnapshot;
import faultbed.schedulers.TaskType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A user's own speculation policy: among tasks that have run long enough, back up the ones whose
 * progress rate is below a share of their type's median rate, slowest first, with at most a share
 * of the job's tasks backed up at once.
 *
 * <p>Parameters: {@code slowShare} (0.5 of the median rate), {@code minRunSeconds} (10),
 * {@code cap} (0.1 of the tasks).
 */
public final class SlowestRateFirst implements SpeculationPolicy {
  private double slowShare = 0.5;
  private long minRunMs = 10_000;
  private double cap = 0.1;

  @Override
  public String name() {
    return "slowest-rate-first";
  }

  @Override
  public void configure(PolicySettings settings) {
    slowShare = settings.number("slowShare", 0.5);
    minRunMs = settings.millis("minRunSeconds", 10);
    cap = settings.number("cap", 0.1);
  }

  @Override
  public List<Backup> choose(JobSnapshot job) {
    int room = (int) Math.floor(cap * job.tasks().size()) - job.runningBackups();
    List<Backup> out = new ArrayList<>();
    for (TaskType type : TaskType.values()) {
      List<AttemptSnapshot> running = new ArrayList<>();
      for (TaskSnapshot t : job.tasks(type)) {
        t.soleRunningAttempt().filter(a -> a.elapsedMs(job.nowMs()) >= minRunMs).ifPresent(running::add);
      }
      if (running.size() < 2) {
        continue;
      }
      double[] rates = running.stream().mapToDouble(a -> a.progressRate(job.nowMs())).sorted().toArray();
      double median = rates[rates.length / 2];
      for (TaskSnapshot t : job.tasks(type)) {
        t.soleRunningAttempt().filter(a -> a.elapsedMs(job.nowMs()) >= minRunMs).ifPresent(a -> {
          double rate = a.progressRate(job.nowMs());
          if (rate < slowShare * median) {
            out.add(new Backup(t.id(), "progress rate " + rate + "/ms below " + slowShare + " of the median "
                + median + "/ms", Map.of("rate", rate, "medianRate", median)));
          }
        });
      }
    }
    out.sort(Comparator.comparingDouble(b -> b.evidence().get("rate")));
    return out.subList(0, Math.max(0, Math.min(room, out.size())));
  }
}
