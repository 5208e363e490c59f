package faultbed.experiments.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import faultbed.experiments.scenario.InventoryParser;
import faultbed.faults.remote.RemoteHost;
import faultbed.harness.remote.Inventory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.SleepJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The remote backend's test cluster is a real one: its NodeManagers register from their own
 * addresses, a job submitted with nothing but its client configuration runs on them, and each
 * worker answers over SSH as the host running its NodeManager.
 */
class YarnHostsTest {
  @TempDir
  Path dir;

  @Test
  void aJobRunsOnTheWorkersAndEachWorkerAnswersOverSsh() throws Exception {
    List<String> problems = YarnHosts.problems();
    assumeTrue(problems.isEmpty(), () -> "no test cluster of hosts here: " + problems);
    try (YarnHosts cluster = YarnHosts.start(dir.resolve("hosts"), 3)) {
      Set<String> addresses = cluster.workers().stream().map(YarnHosts.Host::address).collect(Collectors.toSet());
      assertEquals(addresses, Set.copyOf(cluster.runningNodeManagers()));

      Configuration conf = new Configuration();
      for (String f : List.of("core-site.xml", "hdfs-site.xml", "yarn-site.xml", "mapred-site.xml")) {
        conf.addResource(new org.apache.hadoop.fs.Path(cluster.clientConfig().resolve(f).toUri()));
      }
      SleepJob sleep = new SleepJob();
      sleep.setConf(conf);
      Job job = sleep.createJob(3, 1, 500, 1, 500, 1);
      assertTrue(job.waitForCompletion(false), "the job on the test cluster: " + job.getStatus());

      Inventory inventory = InventoryParser.parse(cluster.writeInventory(dir.resolve("inventory.json")));
      assertEquals(3, inventory.workers().size());
      for (YarnHosts.Host w : cluster.workers()) {
        try (RemoteHost host = RemoteHost.connect(inventory.worker(w.name()).orElseThrow(), Duration.ofSeconds(20))) {
          RemoteHost.Result nm = host.probe(List.of("pgrep", "-f", "-d", " ", "--", "-Dproc_nodemanager"));
          assertTrue(nm.ok() && !nm.out().isBlank(), w.name() + ": a NodeManager process: " + nm);
          RemoteHost.Result addr = host.probe(List.of("ip", "-4", "-o", "addr", "show", "dev", "eth0"));
          assertTrue(addr.out().contains(w.address() + "/"), w.name() + ": " + addr);
        }
      }
    }
    String hosts = dir.resolve("hosts").toString();
    List<String> left = ProcessHandle.allProcesses().map(p -> p.info().commandLine().orElse(""))
        .filter(c -> c.contains(hosts)).toList();
    assertTrue(left.isEmpty(), "daemons or sshd left after close: " + left);
  }
}
