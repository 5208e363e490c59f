package faultbed.harness.daemons;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.mapred.ShuffleHandler;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;

/**
 * One worker node as its own process, run inside the node's network namespace and cgroup: a
 * DataNode and a NodeManager configured from {@code node-site.xml} in the folder it is given. Its
 * containers are its children, so they share its namespace and cgroup; killing the node's cgroup
 * kills the whole machine. Once both serve, it writes what the harness needs to know of it
 * (NodeId, ports, pid) to the status file, atomically.
 */
public final class NodeProcess {
  public static final String SITE = "node-site.xml";
  /** The metrics system's configuration, as Hadoop looks it up on the class path. */
  static final String METRICS = "hadoop-metrics2.properties";

  private NodeProcess() {}

  public static void main(String[] args) throws Exception {
    Path confDir = Path.of(args[0]);
    Path status = Path.of(args[1]);
    // Parts of the NodeManager read yarn-site.xml from the classpath, not the configuration they are
    // given (DirectoryCollection's yarn.nodemanager.disk-validator): the node's site file is its
    // yarn-site.xml, as on a machine whose settings live there. Threads inherit the loader.
    java.net.URL site = confDir.resolve(SITE).toUri().toURL();
    // the metrics system samples only where it has a sink: it is given one, as a monitored machine's is
    Path metricsFile = confDir.resolve(METRICS);
    Files.writeString(metricsFile, "# the node's metrics sampled every 10 s, kept nowhere (see DiscardingMetricsSink)\n"
        + "*.period=10\n"
        // a sink is an instance of the process's prefix (its first daemon's; the second shares it)
        + "datanode.sink.faultbed.class=" + DiscardingMetricsSink.class.getName() + "\n"
        + "nodemanager.sink.faultbed.class=" + DiscardingMetricsSink.class.getName() + "\n");
    java.net.URL metrics = metricsFile.toUri().toURL();
    Thread.currentThread().setContextClassLoader(new ClassLoader(NodeProcess.class.getClassLoader()) {
      @Override
      public java.net.URL getResource(String name) {
        return name.equals("yarn-site.xml") ? site : name.equals(METRICS) ? metrics : super.getResource(name);
      }
    });
    Configuration conf = new YarnConfiguration(new HdfsConfiguration(false));
    conf.addResource(new org.apache.hadoop.fs.Path(confDir.resolve(SITE).toUri()));
    // a DataNode and a NodeManager in one JVM each register the JVM's metrics source
    org.apache.hadoop.metrics2.lib.DefaultMetricsSystem.setMiniClusterMode(true);
    DataNode dn = DataNode.createDataNode(new String[0], conf);
    NodeManager nm = new NodeManager();
    nm.init(conf);
    nm.start();
    LogDeletions.droppedOnStop(nm);
    // a graceful stop (SIGTERM): containers killed, the RM told the node leaves, as a NodeManager does
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      nm.stop();
      dn.shutdown();
    }, "node-shutdown"));
    var meta = nm.getNMContext().getAuxServices().getMetaData().get(ShuffleHandler.MAPREDUCE_SHUFFLE_SERVICEID);
    Properties p = new Properties();
    p.setProperty("nodeId", nm.getNMContext().getNodeId().toString());
    int advertised = ShuffleHandler.deserializeMetaData(meta.duplicate());
    int fixed = conf.getInt(ShuffleHandler.SHUFFLE_PORT_CONFIG_KEY, 0); // bound there when a proxy fronts it
    p.setProperty("shufflePort", Integer.toString(fixed > 0 ? fixed : advertised));
    p.setProperty("advertisedShufflePort", Integer.toString(advertised));
    p.setProperty("nmHttpPort", Integer.toString(nm.getNMContext().getHttpPort()));
    p.setProperty("dnXferPort", Integer.toString(dn.getXferPort()));
    p.setProperty("dnIpcPort", Integer.toString(dn.getIpcPort()));
    p.setProperty("dnHttpPort", Integer.toString(dn.getInfoPort()));
    p.setProperty("pid", Long.toString(ProcessHandle.current().pid()));
    Path tmp = status.resolveSibling(status.getFileName() + ".tmp");
    try (var out = Files.newOutputStream(tmp)) {
      p.store(out, "faultbed node");
    }
    Files.move(tmp, status, StandardCopyOption.ATOMIC_MOVE);
    Thread.currentThread().join(); // the node lives until its process is killed or stopped
  }
}
