package faultbed.schedulers.placement;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Which waiting map a container on a node should run (Guo and Fox, CCGrid 2012, §III.D.1). The
 * network-aware policies give a node only its candidate set, the maps whose preferred node it is
 * (equation 6), and choose among them by one of the seed's two heuristics; a node with no
 * candidate gets nothing, and its container goes back, since every waiting map expects to finish
 * sooner elsewhere. {@link #STOCK} is Hadoop's own choice (node-local, then rack-local, then the
 * oldest request), left to the ApplicationMaster's code.
 */
public enum PlacementPolicy {
  /** Hadoop's RMContainerAllocator decides; with the scheduler's delay scheduling this is the baseline. */
  STOCK("stock"),
  /** Heuristic 1 (equation 7): the candidate with the earliest expected completion, for throughput. */
  MIN_COMPLETION("min-completion"),
  /** Heuristic 2 (equation 8): the candidate with the latest expected completion, long tasks first. */
  MAX_COMPLETION("max-completion");

  private final String scenarioName;

  PlacementPolicy(String scenarioName) {
    this.scenarioName = scenarioName;
  }

  public String scenarioName() {
    return scenarioName;
  }

  @Override
  public String toString() {
    return scenarioName;
  }

  public static PlacementPolicy named(String name) {
    for (PlacementPolicy p : values()) {
      if (p.scenarioName.equals(name)) {
        return p;
      }
    }
    throw new IllegalArgumentException("expected one of " + names() + ", got \"" + name + "\"");
  }

  public static List<String> names() {
    return Arrays.stream(values()).map(PlacementPolicy::scenarioName).toList();
  }

  /** Why a map went to a node, or why none did, for the ApplicationMaster's log. */
  public record Choice(Optional<PendingMap> map, double completionMs, int candidates) {}

  /**
   * The map a container on {@code host} should run, among {@code waiting}. Ties go to the map
   * listed first (Hadoop lists maps in request order), so a choice is reproducible.
   */
  public Choice choose(String host, List<PendingMap> waiting, CompletionTimes times) {
    if (this == STOCK) {
      throw new IllegalStateException("stock placement is Hadoop's own; nothing to choose here");
    }
    NodeView node = times.nodes().stream().filter(n -> n.host().equals(host)).findFirst()
        .orElse(NodeView.freeNow(host));
    List<PendingMap> candidates = waiting.stream()
        .filter(m -> times.preferred(m).map(p -> p.host().equals(host)).orElse(false)).toList();
    Comparator<PendingMap> byCompletion = Comparator.comparingDouble(m -> times.completionMs(m, node));
    // stable: min and max keep the first of equals only if the comparator never reorders them
    Optional<PendingMap> chosen = this == MIN_COMPLETION
        ? candidates.stream().min(byCompletion)
        : candidates.stream().reduce((a, b) -> byCompletion.compare(b, a) > 0 ? b : a);
    return new Choice(chosen, chosen.map(m -> times.completionMs(m, node)).orElse(Double.NaN), candidates.size());
  }
}
