package faultbed.harness.sim;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.concurrent.ConcurrentSkipListMap;
import org.apache.hadoop.mapreduce.v2.app.TaskHeartbeatHandler;
import org.apache.hadoop.mapreduce.v2.app.speculate.DefaultSpeculator;

/**
 * The private members of Hadoop 3.4.3's AM that the simulation reaches by reflection, all here.
 * Their threads sleep in wall time, so the event loop calls the bodies of their loops itself:
 * DefaultSpeculator.computeSpeculations(), and TaskHeartbeatHandler's inner PingChecker's
 * checkRunning(long) and checkRecentlyUnregistered(long). TaskHeartbeatHandler's runningAttempts and
 * recentlyUnregisteredAttempts maps are swapped for sorted ones so timeouts fire in attempt order.
 * A Hadoop upgrade that renames any of these fails here, at construction.
 */
final class PrivateHadoopCalls {
  private final Method computeSpeculations;
  private final Object pingChecker;
  private final Method checkRunning;
  private final Method checkRecentlyUnregistered;

  PrivateHadoopCalls(TaskHeartbeatHandler heartbeats) {
    try {
      computeSpeculations = DefaultSpeculator.class.getDeclaredMethod("computeSpeculations");
      computeSpeculations.setAccessible(true);
      for (String name : new String[] {"runningAttempts", "recentlyUnregisteredAttempts"}) {
        Field field = TaskHeartbeatHandler.class.getDeclaredField(name);
        field.setAccessible(true);
        field.set(heartbeats, new ConcurrentSkipListMap<>());
      }
      Class<?> checker = Class.forName(TaskHeartbeatHandler.class.getName() + "$PingChecker");
      Constructor<?> make = checker.getDeclaredConstructor(TaskHeartbeatHandler.class);
      make.setAccessible(true);
      pingChecker = make.newInstance(heartbeats);
      checkRunning = checker.getDeclaredMethod("checkRunning", long.class);
      checkRunning.setAccessible(true);
      checkRecentlyUnregistered = checker.getDeclaredMethod("checkRecentlyUnregistered", long.class);
      checkRecentlyUnregistered.setAccessible(true);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Hadoop's AM internals are not those of 3.4.3", e);
    }
  }

  /** One speculator scan; returns how many speculative attempts it asked for. */
  int computeSpeculations(DefaultSpeculator speculator) {
    return (Integer) call(computeSpeculations, speculator);
  }

  /** One pass of the heartbeat handler's timeout check. */
  void checkHeartbeats(long now) {
    call(checkRunning, pingChecker, now);
    call(checkRecentlyUnregistered, pingChecker, now);
  }

  private static Object call(Method method, Object target, Object... args) {
    try {
      return method.invoke(target, args);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("calling " + method.getName(), e);
    }
  }
}
