package faultbed.results.compare;

import faultbed.results.RunRecord;
import faultbed.results.SpeculationOutcome;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.commons.statistics.inference.AlternativeHypothesis;
import org.apache.commons.statistics.inference.BinomialTest;

/**
 * Whether one speculator launches fewer useless backups than another (BASE's claim, Guo and Fox,
 * abstract and §III.C), compared block by block where both ran in the same blocks. Useless in their
 * sense: "killed soon after creation as the original tasks complete earlier". Here that is a backup
 * killed because its original finished first ({@link SpeculationOutcome#lost()}) or killed at once
 * by its policy on a node it judged slow ({@link SpeculationOutcome#refusedOnNode()}). The test is
 * the exact sign test (Commons Statistics' binomial test, one-sided) over the blocks where the two
 * counts differ: it uses no magnitudes, so it needs no assumption about how counts are spread, and
 * its smallest p-value is 0.5 to the power of those blocks.
 *
 * @param blocks blocks where both variants ran
 * @param baselineUseless useless backups of the baseline over those blocks
 * @param candidateUseless the same for the candidate
 * @param candidateFewer blocks where the candidate had fewer
 * @param candidateMore blocks where it had more
 * @param pFewer one-sided p-value that the candidate has fewer (1 when no block differs)
 */
public record UselessBackups(String baseline, String candidate, int blocks, int baselineUseless,
    int candidateUseless, int candidateFewer, int candidateMore, double pFewer) {

  /** Empty unless both variants have runs in common blocks. */
  public static Optional<UselessBackups> of(java.util.List<RunRecord> records, String baseline, String candidate) {
    Map<Integer, Integer> base = perBlock(records, baseline);
    Map<Integer, Integer> cand = perBlock(records, candidate);
    base.keySet().retainAll(cand.keySet());
    if (base.isEmpty()) {
      return Optional.empty();
    }
    int baseTotal = 0;
    int candTotal = 0;
    int fewer = 0;
    int more = 0;
    for (Map.Entry<Integer, Integer> e : base.entrySet()) {
      int b = e.getValue();
      int c = cand.get(e.getKey());
      baseTotal += b;
      candTotal += c;
      fewer += c < b ? 1 : 0;
      more += c > b ? 1 : 0;
    }
    double p = fewer + more == 0 ? 1.0 : BinomialTest.withDefaults().with(AlternativeHypothesis.GREATER_THAN)
        .test(fewer + more, fewer, 0.5).getPValue();
    return Optional.of(new UselessBackups(baseline, candidate, base.size(), baseTotal, candTotal, fewer, more, p));
  }

  private static int useless(SpeculationOutcome o) {
    return o.lost() + o.refusedOnNode();
  }

  /** Useless backups per block of one variant; a block run twice (it cannot be paired) is left out. */
  private static Map<Integer, Integer> perBlock(java.util.List<RunRecord> records, String variant) {
    Map<Integer, Integer> out = new TreeMap<>();
    java.util.Set<Integer> twice = new java.util.HashSet<>();
    for (RunRecord r : records) {
      if (!variant.equals(r.variant()) || r.block() == null) {
        continue;
      }
      if (out.put(r.block().index(), useless(SpeculationOutcome.of(r))) != null) {
        twice.add(r.block().index());
      }
    }
    out.keySet().removeAll(twice);
    return out;
  }
}
