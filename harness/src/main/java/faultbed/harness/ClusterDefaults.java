package faultbed.harness;

import faultbed.harness.timescale.TimeCompression;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * faultbed's Hadoop settings, whatever the nodes run in: small containers so eight fit on two
 * cores, prompt kills on stop, compressed timers, and every setting of the spec on top.
 */
public final class ClusterDefaults {
  private ClusterDefaults() {}

  public static void apply(Configuration conf, ClusterSpec spec, Path workDir) {
    conf.setInt(YarnConfiguration.YARN_MINICLUSTER_NM_PMEM_MB, spec.nodeMemoryMb());
    conf.setInt(YarnConfiguration.NM_PMEM_MB, spec.nodeMemoryMb());
    conf.setInt(YarnConfiguration.NM_VCORES, spec.nodeVcores());
    conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
    int mb = spec.containerMemoryMb();
    String heap = "-Xmx" + (mb * 3 / 4) + "m -XX:+UseSerialGC -XX:TieredStopAtLevel=1";
    conf.setInt("mapreduce.map.memory.mb", mb);
    conf.setInt("mapreduce.reduce.memory.mb", mb);
    conf.setInt("yarn.app.mapreduce.am.resource.mb", mb);
    conf.set("mapreduce.map.java.opts", heap);
    conf.set("mapreduce.reduce.java.opts", heap);
    conf.set("yarn.app.mapreduce.am.command-opts", heap);
    conf.setBoolean("mapreduce.jvm.add-opens-as-default", true);
    conf.setLong(YarnConfiguration.NM_SLEEP_DELAY_BEFORE_SIGKILL_MS, 100);
    conf.setLong(YarnConfiguration.NM_PROCESS_KILL_WAIT_MS, 500);
    conf.setFloat(YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE, 99.5f);
    // tasks report progress every second (default: 1% of the task timeout, 6 s), so rates are visible
    conf.setLong("mapreduce.task.progress-report.interval", 1000);
    conf.setBoolean("mapreduce.map.speculative", false);
    conf.setBoolean("mapreduce.reduce.speculative", false);
    // containers must find java where the harness runs it
    conf.set("yarn.nodemanager.admin-env", "JAVA_HOME=" + System.getProperty("java.home"));
    TimeCompression compression = new TimeCompression(spec.timeScale());
    compression.settings(spec.hadoop()).forEach(conf::set);
    if (compression.active()) {
      String agent = " " + compression.javaAgentOption(TimeCompression.writeAgentJar(workDir).toAbsolutePath());
      conf.set("mapreduce.reduce.java.opts", heap + agent);
      conf.set("yarn.app.mapreduce.am.command-opts", heap + agent);
    }
    // Hadoop lets ApplicationMasters hold a tenth of a queue: on a few small nodes that is one AM, so
    // a second job (a companion, or a client's beside a run) would wait for the first to end.
    conf.set("yarn.scheduler.capacity.maximum-am-resource-percent", "0.5");
    // A suite of a thousand jobs on a cluster that lives in the harness's JVM: the RM keeps 1,000
    // finished applications and the history server 20,000 jobs' entries by default, so the heap would
    // grow for the whole suite; a run reads only its own job, while it runs.
    conf.setInt(YarnConfiguration.RM_MAX_COMPLETED_APPLICATIONS, 20);
    conf.setInt(YarnConfiguration.RM_STATE_STORE_MAX_COMPLETED_APPLICATIONS, 20);
    conf.setInt("mapreduce.jobhistory.joblist.cache.size", 20);
    pinnable(conf, workDir);
    spec.hadoop().forEach(conf::set);
  }

  /**
   * Node labels on, one per part a run may pin, which the default queue may use whole: the labels
   * a run puts on its chosen nodes are then the only places the part's requests are served, while
   * maps may still run there (the labels are non-exclusive, see {@link PinnedNodes}). A run that
   * pins nothing labels no node, and every node is in the default partition as without labels.
   */
  private static void pinnable(Configuration conf, Path workDir) {
    conf.setBoolean(YarnConfiguration.NODE_LABELS_ENABLED, true);
    conf.set(YarnConfiguration.FS_NODE_LABELS_STORE_ROOT_DIR, workDir.resolve("node-labels").toUri().toString());
    String labels = String.join(",", java.util.Arrays.stream(Pin.values()).map(Pin::label).toList());
    conf.set("yarn.scheduler.capacity.root.accessible-node-labels", labels);
    conf.set("yarn.scheduler.capacity.root.default.accessible-node-labels", labels);
    for (Pin p : Pin.values()) {
      conf.set("yarn.scheduler.capacity.root.accessible-node-labels." + p.label() + ".capacity", "100");
      conf.set("yarn.scheduler.capacity.root.default.accessible-node-labels." + p.label() + ".capacity", "100");
      // one node is the whole partition: its AM limit must not be a tenth of it
      conf.set("yarn.scheduler.capacity.root.default.accessible-node-labels." + p.label()
          + ".maximum-am-resource-percent", "1.0");
    }
  }
}
