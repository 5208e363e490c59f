package faultbed.harness.ns;

import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;

/**
 * One worker node as its own process, run inside the node's network namespace and cgroup: a
 * DataNode and a NodeManager configured from the site files in the folder it is given. Its
 * containers are its children, so they share its namespace and cgroup; killing the node's cgroup
 * kills the whole machine.
 */
public final class NodeProcess {
  private NodeProcess() {}

  public static void main(String[] args) throws Exception {
    Path confDir = Path.of(args[0]);
    Configuration conf = new YarnConfiguration(new HdfsConfiguration(false));
    for (String site : new String[] {"core-site.xml", "hdfs-site.xml", "yarn-site.xml", "mapred-site.xml"}) {
      conf.addResource(new org.apache.hadoop.fs.Path(confDir.resolve(site).toUri()));
    }
    // a DataNode and a NodeManager in one JVM each register the JVM's metrics source
    org.apache.hadoop.metrics2.lib.DefaultMetricsSystem.setMiniClusterMode(true);
    DataNode dn = DataNode.createDataNode(new String[0], conf);
    NodeManager nm = new NodeManager();
    nm.init(conf);
    nm.start();
    System.out.println("READY " + nm.getNMContext().getNodeId() + " " + dn.getDatanodeId().getXferAddr());
    System.out.flush();
    Thread.currentThread().join(); // the node lives until its process is killed
  }
}
