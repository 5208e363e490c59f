package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.experiments.scenario.Scenario;
import faultbed.harness.workload.Workloads;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class RunOrderTest {
  private static Scenario scenario(long seed, int runs) {
    return Scenario.builder("order").workload(Workloads.sort(1L << 20)).runs(runs).seed(seed)
        .variant("a", v -> v).variant("b", v -> v).variant("c", v -> v)
        .variant("d", v -> v.hadoop("yarn.nm.liveness-monitor.expiry-interval-ms", "20000")).build();
  }

  @Test
  void everyBlockHoldsOneRunOfEachVariantWithOneSeed() {
    Scenario s = scenario(7, 10);
    RunOrder order = RunOrder.of(s);
    assertEquals(40, order.size());
    for (int b = 0; b < 10; b++) {
      int block = b;
      List<RunOrder.Slot> in = order.runs().subList(4 * b, 4 * b + 4);
      assertEquals(Set.of("a", "b", "c", "d"), in.stream().map(x -> x.variant().name()).collect(Collectors.toSet()));
      assertTrue(in.stream().allMatch(x -> x.runIndex() == block && x.block().index() == block && x.block().size() == 4));
      assertEquals(List.of(0, 1, 2, 3), in.stream().map(x -> x.block().position()).toList());
    }
  }

  @Test
  void theOrderWithinBlocksIsShuffledBySeedAndReproducible() {
    List<String> first = names(RunOrder.of(scenario(7, 10)));
    assertEquals(first, names(RunOrder.of(scenario(7, 10))), "same seed, same order");
    assertNotEquals(first, names(RunOrder.of(scenario(8, 10))), "another seed, another order");
    Set<String> orders = new HashSet<>();
    for (int b = 0; b < 10; b++) {
      orders.add(String.join(",", first.subList(4 * b, 4 * b + 4)));
    }
    assertTrue(orders.size() > 3, "blocks are not all in one order: " + orders);
  }

  @Test
  void variantsOnAnotherClusterRunTogetherWithinABlock() {
    RunOrder order = RunOrder.of(scenario(7, 10));
    for (int b = 0; b < 10; b++) {
      List<String> block = names(order).subList(4 * b, 4 * b + 4);
      int d = block.indexOf("d");
      assertTrue(d == 0 || d == 3, "the variant with its own cluster is not between the others: " + block);
    }
    assertTrue(order.clusterStarts() <= 20, "at most two starts a block: " + order.clusterStarts());
  }

  @Test
  void shardsTakeWholeBlocksAndTogetherAreTheSuite() {
    RunOrder order = RunOrder.of(scenario(7, 10));
    List<RunOrder.Slot> joined = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      RunOrder shard = order.shard(i, 3);
      int index = i;
      assertTrue(shard.runs().stream().allMatch(x -> x.block().index() % 3 == index - 1));
      assertEquals(0, shard.size() % 4, "whole blocks only");
      joined.addAll(shard.runs());
    }
    assertEquals(Set.copyOf(order.runs()), Set.copyOf(joined));
    assertEquals(order.size(), joined.size());
    assertThrows(IllegalArgumentException.class, () -> order.shard(4, 3));
    assertThrows(IllegalArgumentException.class, () -> order.shard(0, 3));
  }

  @Test
  void variantsWithFewerRunsLeaveTheLaterBlocks() {
    Scenario s = Scenario.builder("uneven").workload(Workloads.sort(1L << 20)).runs(3)
        .variant("a", v -> v).variant("b", v -> v.runs(1)).build();
    RunOrder order = RunOrder.of(s);
    assertEquals(4, order.size());
    assertEquals(List.of(2, 2, 1, 1), order.runs().stream().map(x -> x.block().size()).toList());
    assertEquals(List.of(0, 0, 1, 2), order.runs().stream().map(x -> x.block().index()).toList());
  }

  private static List<String> names(RunOrder order) {
    return order.runs().stream().map(x -> x.variant().name()).toList();
  }
}
