package faultbed.harness.daemons;

import faultbed.harness.HarnessException;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;
import org.apache.hadoop.hdfs.server.namenode.NameNode;

/**
 * A NameNode with no checkpointer beside it (no secondary or standby NameNode, as in faultbed's local
 * clusters) journals every change for as long as it runs: its edit log grew by a megabyte, in each of
 * its folders, every hundred or so runs of a suite. Between runs faultbed checkpoints it as a
 * secondary NameNode would (the namespace saved in safe mode, for the milliseconds that takes, while
 * no job runs), keeping one image and the last thousand transactions before it: a save cannot drop
 * the journal up to itself (Hadoop refuses to purge past the segment it has just closed), so the
 * journal kept is about a dozen runs' segments, whatever the suite's length.
 */
public final class NameNodeCheckpoint {
  private NameNodeCheckpoint() {}

  /** The NameNode's settings for it: one image, and a thousand transactions of the journal before it. */
  public static void configure(Configuration conf) {
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_NUM_CHECKPOINTS_RETAINED_KEY, 1);
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_NUM_EXTRA_EDITS_RETAINED_KEY, 1000);
  }

  /** Saves the namespace and drops the journal before it; the NameNode leaves safe mode whatever happens. */
  public static void save(NameNode nameNode) {
    var rpc = nameNode.getRpcServer();
    try {
      rpc.setSafeMode(SafeModeAction.SAFEMODE_ENTER, false);
      try {
        rpc.saveNamespace(0, 0);
      } finally {
        rpc.setSafeMode(SafeModeAction.SAFEMODE_LEAVE, false);
      }
    } catch (IOException e) {
      throw new HarnessException("cannot checkpoint the NameNode between runs: " + e.getMessage(), e);
    }
  }
}
