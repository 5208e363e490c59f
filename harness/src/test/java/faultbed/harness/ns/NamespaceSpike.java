package faultbed.harness.ns;

import faultbed.faults.Cgroup;
import faultbed.faults.Ledger;
import faultbed.faults.LedgerEntry;
import faultbed.faults.NodeNetwork;
import faultbed.harness.workload.Workloads;
import java.io.FileOutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("benchmark")
class NamespaceSpike {
  @Test
  void run() throws Exception {
    int n = 2;
    Ledger ledger = Ledger.open();
    NodeNetwork net = NodeNetwork.create(ledger);
    String b = net.hostAddress();
    Path work = Path.of("/var/tmp/faultbed-spike-" + ledger.owner());
    Files.createDirectories(work);
    List<Process> procs = new ArrayList<>();
    NameNode nn = null;
    MiniMRYarnCluster mr = null;
    Cgroup top = Cgroup.of(ledger.owner()).create();
    ledger.record(LedgerEntry.cgroup(top, "spike"));
    try {
      int nnPort;
      try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(b))) {
        nnPort = s.getLocalPort();
      }
      Configuration hdfs = new HdfsConfiguration();
      hdfs.set("fs.defaultFS", "hdfs://" + b + ":" + nnPort);
      hdfs.set("dfs.namenode.rpc-address", b + ":" + nnPort);
      hdfs.set("dfs.namenode.http-address", b + ":0");
      hdfs.set("dfs.namenode.name.dir", work.resolve("nn").toString());
      hdfs.setInt("dfs.replication", 1);
      hdfs.setBoolean("dfs.permissions.enabled", false);
      hdfs.setBoolean("dfs.namenode.datanode.registration.ip-hostname-check", false);
      org.apache.hadoop.metrics2.lib.DefaultMetricsSystem.setMiniClusterMode(true);
      NameNode.format(hdfs);
      nn = NameNode.createNameNode(new String[0], hdfs);
      System.err.println("SPIKE nn up at " + nn.getNameNodeAddress());

      Configuration conf = new YarnConfiguration(hdfs);
      conf.set(YarnConfiguration.RM_BIND_HOST, b);
      conf.set("yarn.node-attribute.fs-store.root-dir", work.resolve("node-attributes").toUri().toString());
      conf.set("mapreduce.jobhistory.bind-host", b);
      conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
      conf.setInt("mapreduce.map.memory.mb", 512);
      conf.setInt("mapreduce.reduce.memory.mb", 512);
      conf.setInt("yarn.app.mapreduce.am.resource.mb", 512);
      conf.set("mapreduce.map.java.opts", "-Xmx384m -XX:+UseSerialGC");
      conf.set("mapreduce.reduce.java.opts", "-Xmx384m -XX:+UseSerialGC");
      conf.set("yarn.app.mapreduce.am.command-opts", "-Xmx384m -XX:+UseSerialGC");
      conf.setBoolean("mapreduce.jvm.add-opens-as-default", true);
      conf.set("yarn.nodemanager.admin-env", "JAVA_HOME=" + System.getProperty("java.home"));
      System.setProperty("test.build.data", work.resolve("yarn").toString());
      mr = new MiniMRYarnCluster("ns", 0);
      mr.init(conf);
      mr.start();
      Configuration client = new Configuration(mr.getConfig());
      for (Map.Entry<String, String> e : mr.getConfig()) {
        String v = e.getValue();
        if (v != null && (v.startsWith("localhost:") || v.startsWith("127.0.0.1:") || v.startsWith("0.0.0.0:"))) {
          client.set(e.getKey(), b + v.substring(v.indexOf(':')));
        }
      }
      System.err.println("SPIKE rm " + client.get(YarnConfiguration.RM_ADDRESS) + " sched "
          + client.get(YarnConfiguration.RM_SCHEDULER_ADDRESS) + " jhs " + client.get("mapreduce.jobhistory.address"));

      for (int i = 0; i < n; i++) {
        NodeNetwork.NodeNamespace ns = net.add(i);
        Path dir = work.resolve("node-" + i);
        Files.createDirectories(dir);
        Configuration c = new Configuration(client);
        String a = ns.address();
        c.set("dfs.datanode.data.dir", dir.resolve("dn").toString());
        c.set("dfs.datanode.address", a + ":0");
        c.set("dfs.datanode.http.address", a + ":0");
        c.set("dfs.datanode.ipc.address", a + ":0");
        c.set("dfs.datanode.hostname", a);
        c.set(YarnConfiguration.NM_ADDRESS, a + ":0");
        c.set(YarnConfiguration.NM_LOCALIZER_ADDRESS, a + ":0");
        c.set(YarnConfiguration.NM_WEBAPP_ADDRESS, a + ":0");
        c.set(YarnConfiguration.NM_COLLECTOR_SERVICE_ADDRESS, a + ":0");
        c.set("yarn.nodemanager.hostname", a);
        c.set(YarnConfiguration.NM_LOCAL_DIRS, dir.resolve("local").toString());
        c.set(YarnConfiguration.NM_LOG_DIRS, dir.resolve("logs").toString());
        c.setInt(YarnConfiguration.NM_PMEM_MB, 1024);
        c.setInt(YarnConfiguration.NM_VCORES, 2);
        c.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
        c.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
        c.set(YarnConfiguration.NM_AUX_SERVICES, "mapreduce_shuffle");
        c.set("yarn.nodemanager.aux-services.mapreduce_shuffle.class", "org.apache.hadoop.mapred.ShuffleHandler");
        c.setInt("mapreduce.shuffle.port", 0);
        c.set(YarnConfiguration.NM_CONTAINER_EXECUTOR, "org.apache.hadoop.yarn.server.nodemanager.DefaultContainerExecutor");
        c.setFloat(YarnConfiguration.NM_MAX_PER_DISK_UTILIZATION_PERCENTAGE, 99.5f);
        try (var out = new FileOutputStream(dir.resolve("node-site.xml").toFile())) {
          c.writeXml(out);
        }
        for (String site : new String[] {"core-site.xml", "hdfs-site.xml", "yarn-site.xml", "mapred-site.xml"}) {
          Files.copy(dir.resolve("node-site.xml"), dir.resolve(site), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        Cgroup g = Cgroup.of(ledger.owner() + "/node-" + i).create();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cmd = "exec " + java + " -Xmx256m -XX:+UseSerialGC --add-opens java.base/java.lang=ALL-UNNAMED --add-opens java.base/java.util=ALL-UNNAMED --add-opens java.base/java.util.concurrent=ALL-UNNAMED --add-opens java.base/java.net=ALL-UNNAMED --add-opens java.base/java.io=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED --add-opens java.base/java.lang.reflect=ALL-UNNAMED -cp '" + System.getProperty("java.class.path") + "' "
            + NodeProcess.class.getName() + " " + dir + " > " + dir.resolve("node.log") + " 2>&1";
        procs.add(g.spawn(NodeNetwork.inside(ns, List.of("sh", "-c", cmd))));
      }
      long deadline = System.currentTimeMillis() + 90_000;
      while (mr.getResourceManager().getRMContext().getRMNodes().size() < n && System.currentTimeMillis() < deadline) {
        Thread.sleep(500);
      }
      System.err.println("SPIKE nodes " + mr.getResourceManager().getRMContext().getRMNodes().keySet());
      while (nn.getNamesystem().getNumLiveDataNodes() < n && System.currentTimeMillis() < deadline) {
        Thread.sleep(500);
      }
      System.err.println("SPIKE datanodes " + nn.getNamesystem().getNumLiveDataNodes());
      if (mr.getResourceManager().getRMContext().getRMNodes().size() < n) {
        throw new AssertionError("node managers did not register");
      }
      FileSystem fs = FileSystem.get(client);
      var w = Workloads.sort(16L << 20).withMaps(4).withReduces(2);
      org.apache.hadoop.fs.Path data = new org.apache.hadoop.fs.Path("/faultbed/data");
      w.prepare(fs, data, 1);
      Job job = w.createJob(client, data, 1, new org.apache.hadoop.fs.Path("/faultbed/out/spike"));
      long t0 = System.currentTimeMillis();
      job.submit();
      long end = System.currentTimeMillis() + 240_000;
      while (!job.isComplete() && System.currentTimeMillis() < end) {
        Thread.sleep(1000);
      }
      boolean ok = job.isComplete() && job.isSuccessful();
      System.err.println("SPIKE job " + job.getJobID() + " ok=" + ok + " in " + (System.currentTimeMillis() - t0) + " ms");
    } finally {
      for (int i = 0; i < n; i++) {
        Cgroup.of(ledger.owner() + "/node-" + i).killAll(java.time.Duration.ofSeconds(5));
      }
      if (mr != null) {
        mr.stop();
      }
      if (nn != null) {
        nn.stop();
      }
      net.close();
      ledger.close();
    }
  }
}
