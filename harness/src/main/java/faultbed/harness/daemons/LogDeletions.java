package faultbed.harness.daemons;

import faultbed.harness.HarnessException;
import java.lang.reflect.Field;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.ContainerManagerImpl;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.loghandler.NonAggregatingLogHandler;

/**
 * A NodeManager keeps each finished application's logs for {@code yarn.nodemanager.log.retain-seconds}
 * (three hours by default) with a deletion scheduled that far ahead, and its stop waits up to 10 s
 * for such scheduled deletions before giving up on them: every stop of a node that ran a job took
 * 10 s more. faultbed's nodes outlive no cluster, whose folder goes with it, so the deletions
 * still scheduled are dropped when the node stops; the logs stay until then, as before.
 */
public final class LogDeletions {
  private LogDeletions() {}

  /** Makes {@code nm}'s stop drop its scheduled log deletions instead of waiting for them. */
  public static void droppedOnStop(NodeManager nm) {
    if (!(nm.getNMContext().getContainerManager() instanceof ContainerManagerImpl cm)) {
      return;
    }
    try {
      Field handler = ContainerManagerImpl.class.getDeclaredField("logHandler");
      handler.setAccessible(true);
      if (!(handler.get(cm) instanceof NonAggregatingLogHandler logs)) {
        return; // log aggregation: uploads at the application's end, nothing scheduled hours ahead
      }
      Field sched = NonAggregatingLogHandler.class.getDeclaredField("sched");
      sched.setAccessible(true);
      ((ScheduledThreadPoolExecutor) sched.get(logs)).setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    } catch (ReflectiveOperationException e) {
      throw new HarnessException("cannot reach the NodeManager's log deletions", e);
    }
  }
}
