package faultbed.schedulers.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class PlacementPolicyTest {
  private static final double MB = 1 << 20;

  /** Two fast nodes (a, b: 100 MB/s between them) and a slow one (s: 1 MB/s to and from both). */
  private static Bandwidths twoClasses() {
    return Bandwidths.builder()
        .rate("a", "b", 100 * MB).rate("b", "a", 100 * MB)
        .rate("a", "s", MB).rate("s", "a", MB).rate("b", "s", MB).rate("s", "b", MB)
        .build();
  }

  @Test
  void transferIsInputOverTheFastestReplicasLinkAndNothingWhenLocal() {
    CompletionTimes t = new CompletionTimes(List.of(NodeView.freeNow("a"), NodeView.freeNow("s")), twoClasses());
    PendingMap onS = new PendingMap("m0", 64L << 20, List.of("s"));
    PendingMap onSAndB = new PendingMap("m1", 64L << 20, List.of("s", "b"));
    assertEquals(64_000, t.transferMs(onS, NodeView.freeNow("a")), 1e-6);
    assertEquals(640, t.transferMs(onSAndB, NodeView.freeNow("a")), 1e-6);
    assertEquals(0, t.transferMs(onS, NodeView.freeNow("s")));
  }

  @Test
  void completionAddsComputeAndAvailability() {
    NodeView busyA = new NodeView("a", 5_000, 0.001);
    CompletionTimes t = new CompletionTimes(List.of(busyA, NodeView.freeNow("b")), twoClasses());
    PendingMap onB = new PendingMap("m0", 1_000_000, List.of("b"));
    // PT 1 s on a; DT 1e6 B / 100 MiB/s; AT 5 s
    assertEquals(1_000 + 1_000_000 * 1000.0 / (100 * MB) + 5_000, t.completionMs(onB, busyA), 1e-6);
    // b has computed nothing yet: it is given the mean of the nodes that have (a's 0.001 ms a byte)
    assertEquals(1_000, t.computeMs(onB, NodeView.freeNow("b")), 1e-9);
  }

  @Test
  void aMapPrefersItsDataNodeUntilThatNodeIsBusyLongerThanTheTransfer() {
    PendingMap onA = new PendingMap("m0", 64L << 20, List.of("a"));
    CompletionTimes free = new CompletionTimes(List.of(NodeView.freeNow("a"), NodeView.freeNow("b"),
        NodeView.freeNow("s")), twoClasses());
    assertEquals("a", free.preferred(onA).orElseThrow().host());
    // a is busy for 2 s; b reads the 64 MiB over a 100 MiB/s link in 0.64 s
    CompletionTimes busy = new CompletionTimes(List.of(new NodeView("a", 2_000, Double.NaN), NodeView.freeNow("b"),
        NodeView.freeNow("s")), twoClasses());
    assertEquals("b", busy.preferred(onA).orElseThrow().host());
    // but never the slow node, 64 s away
    CompletionTimes onlySlowFree = new CompletionTimes(List.of(new NodeView("a", 2_000, Double.NaN),
        new NodeView("b", 3_000, Double.NaN), NodeView.freeNow("s")), twoClasses());
    assertEquals("a", onlySlowFree.preferred(onA).orElseThrow().host());
  }

  @Test
  void aNodeNotTakingWorkIsNobodysPreferredNode() {
    PendingMap onA = new PendingMap("m0", 64L << 20, List.of("a"));
    CompletionTimes t = new CompletionTimes(List.of(new NodeView("a", Double.POSITIVE_INFINITY, Double.NaN),
        NodeView.freeNow("s")), twoClasses());
    assertEquals("s", t.preferred(onA).orElseThrow().host());
  }

  @Test
  void aNodeGetsOnlyItsCandidatesAndTheHeuristicsPickOppositeEnds() {
    PendingMap small = new PendingMap("small", 16L << 20, List.of("a"));
    PendingMap large = new PendingMap("large", 64L << 20, List.of("a"));
    PendingMap elsewhere = new PendingMap("elsewhere", 64L << 20, List.of("s"));
    List<PendingMap> waiting = List.of(small, large, elsewhere);
    CompletionTimes t = new CompletionTimes(List.of(new NodeView("a", 0, 0.01), new NodeView("b", 0, 0.01),
        new NodeView("s", 0, 0.01)), twoClasses());

    PlacementPolicy.Choice h1 = PlacementPolicy.MIN_COMPLETION.choose("a", waiting, t);
    PlacementPolicy.Choice h2 = PlacementPolicy.MAX_COMPLETION.choose("a", waiting, t);
    assertEquals(2, h1.candidates());
    assertEquals("small", h1.map().orElseThrow().id());
    assertEquals("large", h2.map().orElseThrow().id());
    assertEquals(t.completionMs(large, new NodeView("a", 0, 0.01)), h2.completionMs(), 1e-9);

    // b holds no input and every map is sooner on its own node: b's container goes back
    PlacementPolicy.Choice onB = PlacementPolicy.MIN_COMPLETION.choose("b", waiting, t);
    assertTrue(onB.map().isEmpty());
    assertEquals(0, onB.candidates());
  }

  @Test
  void tiesGoToTheMapRequestedFirst() {
    PendingMap first = new PendingMap("first", 1 << 20, List.of("a"));
    PendingMap second = new PendingMap("second", 1 << 20, List.of("a"));
    CompletionTimes t = new CompletionTimes(List.of(NodeView.freeNow("a"), NodeView.freeNow("b")), twoClasses());
    assertEquals("first", PlacementPolicy.MIN_COMPLETION.choose("a", List.of(first, second), t).map().orElseThrow().id());
    assertEquals("first", PlacementPolicy.MAX_COMPLETION.choose("a", List.of(first, second), t).map().orElseThrow().id());
  }

  @Test
  void withNothingMeasuredTheDataNodeStillWinsAndAnUnmeasuredPairTakesTheMedian() {
    PendingMap onA = new PendingMap("m0", 64L << 20, List.of("a"));
    CompletionTimes t = new CompletionTimes(List.of(NodeView.freeNow("a"), NodeView.freeNow("b")), Bandwidths.none());
    assertEquals("a", t.preferred(onA).orElseThrow().host());
    Bandwidths partial = Bandwidths.builder().rate("a", "b", 1).rate("b", "a", 3).rate("s", "a", 2).build();
    assertEquals(2, partial.bytesPerSecond("a", "s"));
    assertEquals(Double.POSITIVE_INFINITY, partial.bytesPerSecond("a", "a"));
  }

  @Test
  void namesAndBadValuesAreSaid() {
    assertEquals(PlacementPolicy.MAX_COMPLETION, PlacementPolicy.named("max-completion"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PlacementPolicy.named("fastest"));
    assertEquals("expected one of [stock, min-completion, max-completion], got \"fastest\"", e.getMessage());
    assertThrows(IllegalStateException.class, () -> PlacementPolicy.STOCK.choose("a", List.of(), new CompletionTimes(
        List.of(), Bandwidths.none())));
    assertThrows(IllegalArgumentException.class, () -> Bandwidths.builder().rate("a", "b", 0));
    assertThrows(IllegalArgumentException.class, () -> new NodeView("a", -1, Double.NaN));
  }
}
