package faultbed.harness.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.awaitility.Awaitility.await;

import faultbed.results.RunRecord.SlowReport;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The NameNode's reports read as HDFS 3.4 writes them, and each entry told once when it comes and once when it goes. */
class SlowReportWatcherTest {
  private static final String PEERS = "[{\"SlowNode\":\"198.18.0.12:41234\",\"SlowPeerLatencyWithReportingNodes\":"
      + "[{\"ReportingNode\":\"198.18.0.10:40001\",\"ReportedLatency\":65.1,\"MedianLatency\":0.8,\"MadLatency\":0.3,"
      + "\"UpperLimitLatency\":5.0}]}]";
  private static final String DISKS = "[{\"SlowDiskID\":\"198.18.0.13:40002:/var/tmp/n/disk-0/dn/\","
      + "\"Latencies\":{\"WRITE\":80.0}}]";

  @Test
  void readsPeersAndDisksAsTheNameNodeWritesThem() {
    var named = SlowReportWatcher.named(new SlowReportWatcher.Reports(PEERS, DISKS));
    assertEquals(List.of(
        new SlowReportWatcher.Named("peer", "198.18.0.12:41234", "198.18.0.12",
            "reported by 198.18.0.10:40001 saw 65.1 ms (median 0.8)"),
        new SlowReportWatcher.Named("disk", "198.18.0.13:40002:/var/tmp/n/disk-0/dn/", "198.18.0.13",
            "latencies {WRITE=80.0 ms}")), named);
    assertEquals(List.of(), SlowReportWatcher.named(new SlowReportWatcher.Reports(null, "[]")));
    assertEquals(List.of(), SlowReportWatcher.named(new SlowReportWatcher.Reports("[{\"SlowNode\"", null)),
        "a report cut short reads as none");
  }

  @Test
  void tellsAnEntryWhenItComesAndWhenItGoes() {
    AtomicReference<SlowReportWatcher.Reports> now = new AtomicReference<>(SlowReportWatcher.Reports.NONE);
    AtomicLong clock = new AtomicLong(1_000);
    List<SlowReport> seen = new CopyOnWriteArrayList<>();
    try (SlowReportWatcher w = new SlowReportWatcher(now::get, Map.of("198.18.0.12", 2), clock::get, seen::add)) {
      now.set(new SlowReportWatcher.Reports(PEERS, null));
      await().atMost(Duration.ofSeconds(10)).until(() -> seen.size() == 1);
      clock.set(9_000);
      now.set(new SlowReportWatcher.Reports("[]", null));
      await().atMost(Duration.ofSeconds(10)).until(() -> seen.size() == 2);
    }
    assertEquals(2, seen.get(0).node());
    assertEquals(null, seen.get(0).clearedMs());
    assertEquals(seen.get(0).atMs(), seen.get(1).atMs());
    assertEquals(9_000L, seen.get(1).clearedMs());
  }
}
