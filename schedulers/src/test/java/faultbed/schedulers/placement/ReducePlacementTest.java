package faultbed.schedulers.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReducePlacementTest {
  private static final double MB = 1 << 20;

  /** Fast nodes a and b (100 MiB/s between them), slow s (1 MiB/s to and from both). */
  private static final Bandwidths LINKS = Bandwidths.builder()
      .rate("a", "b", 100 * MB).rate("b", "a", 100 * MB)
      .rate("a", "s", MB).rate("s", "a", MB).rate("b", "s", MB).rate("s", "b", MB)
      .build();

  @Test
  void theShuffleTakesAsLongAsItsSlowestFetchAndNothingFromItsOwnNode() {
    Map<String, Long> from = Map.of("a", 10L << 20, "s", 2L << 20);
    assertEquals(2_000, ReducePlacement.shuffleMs(from, "a", LINKS), 1e-6); // 2 MiB over 1 MiB/s; a's own is local
    assertEquals(10_000, ReducePlacement.shuffleMs(from, "s", LINKS), 1e-6); // 10 MiB from a over 1 MiB/s
    assertEquals(2_000, ReducePlacement.shuffleMs(from, "b", LINKS), 1e-6); // max(0.1 s, 2 s)
  }

  @Test
  void aReduceGoesWhereItsInputIsNearestUnlessThatNodeIsBusyLonger() {
    Map<String, Long> from = Map.of("a", 10L << 20, "b", 10L << 20, "s", 1L << 20);
    List<NodeView> free = List.of(NodeView.freeNow("a"), NodeView.freeNow("b"), NodeView.freeNow("s"));
    // on a or b: 1 s for s's MiB; on s: 10 s each from a and b. a and b tie on time and input: host order
    assertEquals("a", ReducePlacement.preferred(from, free, LINKS).orElseThrow().host());
    List<NodeView> aBusy = List.of(new NodeView("a", 5_000, Double.NaN), NodeView.freeNow("b"), NodeView.freeNow("s"));
    assertEquals("b", ReducePlacement.preferred(from, aBusy, LINKS).orElseThrow().host());
    // a fast node gone, the other busy for 30 s: the slow node's 20 s of shuffle are sooner
    List<NodeView> fastBusy = List.of(new NodeView("a", Double.POSITIVE_INFINITY, Double.NaN),
        new NodeView("b", 30_000, Double.NaN), NodeView.freeNow("s"));
    assertEquals("s", ReducePlacement.preferred(from, fastBusy, LINKS).orElseThrow().host());
  }

  @Test
  void computeTimeCountsTheNodesSpeedOverTheWholeInput() {
    Map<String, Long> from = Map.of("a", 1_000L, "b", 1_000L);
    NodeView slowCpu = new NodeView("a", 0, 1.0);
    NodeView fastCpu = new NodeView("b", 0, 0.1);
    // a: 1000 B from b at 100 MiB/s (~0.01 ms) + 2000 B x 1 ms; b: the same fetch + 2000 x 0.1 ms
    assertEquals("b", ReducePlacement.preferred(from, List.of(slowCpu, fastCpu), LINKS).orElseThrow().host());
    assertEquals(2_000 + 1_000 * 1000.0 / (100 * MB), ReducePlacement.completionMs(from, slowCpu, LINKS, 0.55), 1e-6);
  }
}
