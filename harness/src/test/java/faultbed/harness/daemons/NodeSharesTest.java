package faultbed.harness.daemons;

import static org.junit.jupiter.api.Assertions.assertEquals;

import faultbed.schedulers.stealing.StealingPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node of four slots and two cores (half a core a slot), its containers' groups and working
 * folders plain folders: what the node writes to a held container's quota and thread count as
 * containers come and go.
 */
class NodeSharesTest {
  @TempDir
  Path dir;

  private CpuGroup group(String id) throws Exception {
    Path g = Files.createDirectories(dir.resolve("cpu").resolve(id));
    Files.writeString(g.resolve(CpuGroup.PERIOD), "100000\n");
    return new CpuGroup(List.of(g));
  }

  private Path work(String id) throws Exception {
    return Files.createDirectories(dir.resolve("work").resolve(id));
  }

  private long quota(String id) throws Exception {
    return Long.parseLong(Files.readString(dir.resolve("cpu").resolve(id).resolve(CpuGroup.QUOTA)).trim());
  }

  private int threads(String id) throws Exception {
    return Integer.parseInt(Files.readString(dir.resolve("work").resolve(id).resolve(StrictCpuExecutor.THREADS_FILE)).trim());
  }

  private void progress(String id, long start, double progress, int canUse) throws Exception {
    Files.writeString(work(id).resolve(StrictCpuExecutor.PROGRESS_FILE), start + " " + progress + " " + canUse + "\n");
  }

  @Test
  void idleSlotsAreLentAndTakenBackBeforeANewContainerStarts() throws Exception {
    NodeShares node = new NodeShares(4, 2.0);
    node.started("am", 1, null, null, work("am"), 0); // holds its slot, never lent anything
    node.started("m1", 1, StealingPolicy.EVEN, group("m1"), work("m1"), 0);
    progress("m1", 0, 0.25, 30);
    node.rebalance(1_000);
    assertEquals(150_000, quota("m1"), "its slot and the two idle ones: 1.5 cores");
    assertEquals(3, threads("m1"));

    node.started("m2", 1, StealingPolicy.EVEN, group("m2"), work("m2"), 1_000);
    node.rebalance(1_000);
    assertEquals(100_000, quota("m1"), "one slot given back at once; the other lent to m1, as m2 cannot use it yet");
    assertEquals(2, threads("m1"));
    assertEquals(50_000, quota("m2"));
    assertEquals(1, threads("m2"));

    progress("m2", 1_000, 0.1, 30);
    node.rebalance(2_000);
    assertEquals(100_000, quota("m1"), "even: the one idle slot to the first started");
    assertEquals(50_000, quota("m2"));

    node.ended("m1");
    node.rebalance(3_000);
    assertEquals(150_000, quota("m2"), "m1's slot and the idle one");
    assertEquals(3, threads("m2"));
  }

  @Test
  void strictHoldsEachToItsSlotAndATaskThatCannotUseMoreIsLentNothing() throws Exception {
    NodeShares strict = new NodeShares(4, 2.0);
    strict.started("m1", 1, StealingPolicy.STRICT, group("m1"), work("m1"), 0);
    progress("m1", 0, 0.5, 20);
    strict.rebalance(1_000);
    assertEquals(50_000, quota("m1"));
    assertEquals(1, threads("m1"));

    NodeShares lending = new NodeShares(4, 2.0);
    lending.started("m2", 1, StealingPolicy.LONGEST_TIME_LEFT_MOST, group("m2"), work("m2"), 0);
    progress("m2", 0, 0.95, 1); // its last unit in hand
    lending.rebalance(1_000);
    assertEquals(50_000, quota("m2"));
    assertEquals(1, threads("m2"));
  }

  @Test
  void aFolderNotYetMadeIsWrittenOnTheNextPass() throws Exception {
    NodeShares node = new NodeShares(2, 1.0);
    Path later = dir.resolve("work").resolve("m1");
    node.started("m1", 1, StealingPolicy.EVEN, group("m1"), later, 0);
    node.rebalance(0);
    assertEquals(50_000, quota("m1"), "held to its slot before it starts");
    Files.createDirectories(later);
    progress("m1", 0, 0.1, 10);
    node.rebalance(500);
    assertEquals(100_000, quota("m1"));
    assertEquals(2, threads("m1"));
  }
}
