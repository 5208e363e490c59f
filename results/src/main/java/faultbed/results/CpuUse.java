package faultbed.results;

import faultbed.results.RunRecord.AttemptRecord;
import faultbed.results.RunRecord.CpuShare;
import faultbed.results.stats.Bootstrap;
import java.util.ArrayList;
import java.util.List;

/**
 * What the maps of runs that held them to a CPU share (the scenario's {@code stealing}) did with it,
 * per variant, from the records' {@code cpuShares}: the CPU they used, how much of it beyond their
 * own slots (what they took of the slots lent them), and the cluster's utilisation over the map
 * phase: the maps' CPU over the CPU the nodes offered their containers from the first map's start to
 * the last map's end. A slot's share is the smallest quota a run's maps were seen at; the nodes offer
 * a slot's share per vcore.
 *
 * @param variants one entry per variant whose runs carry shares, in the records' order
 */
public record CpuUse(List<Variant> variants) {

  /**
   * @param runs         runs with shares
   * @param slotCores    a slot's share in cores (the median over the runs)
   * @param mapCoreSeconds     per run, CPU time the maps used while held
   * @param beyondCoreSeconds  per run, CPU time a map used beyond its own slots' share
   * @param utilisation  per run, map CPU over what the nodes offered during the map phase
   */
  public record Variant(String variant, int runs, double slotCores, double[] mapCoreSeconds,
      double[] beyondCoreSeconds, double[] utilisation) implements RunMedians {
  }

  public boolean isEmpty() {
    return variants.isEmpty();
  }

  public static CpuUse of(List<RunRecord> records) {
    List<Variant> out = new ArrayList<>();
    SuiteSummary.byVariant(records).forEach((variant, runs) -> {
      List<Double> slot = new ArrayList<>();
      List<Double> used = new ArrayList<>();
      List<Double> beyond = new ArrayList<>();
      List<Double> utilisation = new ArrayList<>();
      for (RunRecord r : runs) {
        if (r.cpuShares().isEmpty()) {
          continue;
        }
        double slotCores = r.cpuShares().stream().mapToDouble(CpuShare::cores).min().orElseThrow();
        double u = 0;
        double b = 0;
        for (CpuShare s : r.cpuShares()) {
          double seconds = (s.toMs() - s.fromMs()) / 1000.0;
          u += s.usedCores() * seconds;
          b += Math.max(0, s.usedCores() - slotCores) * seconds;
        }
        slot.add(slotCores);
        used.add(u);
        beyond.add(b);
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (AttemptRecord a : r.attempts()) {
          if ("MAP".equals(a.type()) && a.startMs() != null && a.finishMs() != null) {
            first = Math.min(first, a.startMs());
            last = Math.max(last, a.finishMs());
          }
        }
        if (last > first && r.cluster() != null) {
          double offered = r.cluster().nodes() * r.cluster().nodeVcores() * slotCores * (last - first) / 1000.0;
          utilisation.add(u / offered);
        }
      }
      if (!used.isEmpty()) {
        out.add(new Variant(variant, used.size(), Bootstrap.median(array(slot)), array(used), array(beyond),
            array(utilisation)));
      }
    });
    return new CpuUse(List.copyOf(out));
  }

  private static double[] array(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).toArray();
  }
}
