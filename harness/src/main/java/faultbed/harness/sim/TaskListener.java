package faultbed.harness.sim;

import java.net.InetSocketAddress;
import org.apache.hadoop.mapred.Task;
import org.apache.hadoop.mapred.WrappedJvmID;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.app.TaskAttemptListener;
import org.apache.hadoop.mapreduce.v2.app.TaskHeartbeatHandler;
import org.apache.hadoop.net.NetUtils;

/**
 * The AM's side of the task umbilical without its RPC server: the simulated tasks call the AM
 * directly, so this only feeds the heartbeat handler, as TaskAttemptListenerImpl does.
 */
final class TaskListener implements TaskAttemptListener {
  /** Launch contexts embed this address (MapReduceChildJVM reads its IP), so it must be resolved. */
  private static final InetSocketAddress ADDRESS =
      NetUtils.createSocketAddrForHost(SimulatedAppContext.AM_ADDRESS, 54321);

  private final TaskHeartbeatHandler heartbeats;

  TaskListener(TaskHeartbeatHandler heartbeats) {
    this.heartbeats = heartbeats;
  }

  @Override
  public InetSocketAddress getAddress() {
    return ADDRESS;
  }

  @Override
  public void registerPendingTask(Task task, WrappedJvmID jvmId) {
  }

  @Override
  public void registerLaunchedTask(TaskAttemptId attempt, WrappedJvmID jvmId) {
    heartbeats.register(attempt);
  }

  @Override
  public void unregister(TaskAttemptId attempt, WrappedJvmID jvmId) {
    heartbeats.unregister(attempt);
  }
}
