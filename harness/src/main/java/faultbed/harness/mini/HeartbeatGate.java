package faultbed.harness.mini;

import faultbed.harness.HarnessException;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import org.apache.hadoop.yarn.server.api.ResourceTracker;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;
import org.apache.hadoop.yarn.server.nodemanager.NodeStatusUpdaterImpl;

/**
 * Sits between a NodeManager's status updater and the RM and can hold heartbeats back: while
 * closed, the heartbeat thread waits here, as it would behind a frozen or partitioned machine.
 */
final class HeartbeatGate {
  private final Object lock = new Object();
  private boolean closed;

  /** Puts a gate in front of this NodeManager's link to the RM. */
  static HeartbeatGate install(NodeManager nm) {
    HeartbeatGate gate = new HeartbeatGate();
    try {
      Field f = NodeStatusUpdaterImpl.class.getDeclaredField("resourceTracker");
      f.setAccessible(true);
      Object updater = nm.getNodeStatusUpdater();
      ResourceTracker real = (ResourceTracker) f.get(updater);
      f.set(updater, Proxy.newProxyInstance(ResourceTracker.class.getClassLoader(),
          new Class<?>[] {ResourceTracker.class}, (proxy, method, args) -> {
            if (method.getName().equals("nodeHeartbeat")) {
              gate.await();
            }
            try {
              return method.invoke(real, args);
            } catch (InvocationTargetException e) {
              throw e.getCause();
            }
          }));
    } catch (ReflectiveOperationException e) {
      throw new HarnessException("cannot gate the heartbeats of " + nm.getNMContext().getNodeId(), e);
    }
    return gate;
  }

  void close() {
    synchronized (lock) {
      closed = true;
    }
  }

  void open() {
    synchronized (lock) {
      closed = false;
      lock.notifyAll();
    }
  }

  private void await() throws InterruptedException {
    synchronized (lock) {
      while (closed) {
        lock.wait();
      }
    }
  }
}
