package faultbed.harness.sim;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;
import org.apache.hadoop.mapred.ProgressSplitsBlock;
import org.apache.hadoop.mapred.WrappedProgressSplitsBlock;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptStatusUpdateEvent.TaskAttemptStatus;
import org.apache.hadoop.mapreduce.v2.app.job.impl.TaskAttemptImpl;
import org.apache.hadoop.mapreduce.v2.app.TaskHeartbeatHandler;
import org.apache.hadoop.mapreduce.v2.app.speculate.DefaultSpeculator;

/**
 * The private members of Hadoop 3.4.3's AM that the simulation reaches by reflection, all here.
 * Their threads sleep in wall time, so the event loop calls the bodies of their loops itself:
 * DefaultSpeculator.computeSpeculations(), and TaskHeartbeatHandler's inner PingChecker's
 * checkRunning(long) and checkRecentlyUnregistered(long). TaskHeartbeatHandler's runningAttempts and
 * recentlyUnregisteredAttempts maps are swapped for sorted ones so timeouts fire in attempt order.
 * What TaskAttemptImpl writes to the job history but does not expose, its progress splits and the
 * reported end of a map's map phase, is read from its fields for the records.
 * A Hadoop upgrade that renames any of these fails here, at construction or at class load.
 */
final class PrivateHadoopCalls {
  private static final Field PROGRESS_SPLITS = field(TaskAttemptImpl.class, "progressSplitBlock");
  private static final Field REPORTED_STATUS = field(TaskAttemptImpl.class, "reportedStatus");

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

  /**
   * The wall-clock time the attempt spent in each twelfth of its progress, as the AM's progress
   * splits have it (what the history's clockSplits carry), the twelfths it reached only; null when it
   * reported nothing.
   */
  static List<Integer> progressClock(TaskAttemptImpl attempt) {
    WrappedProgressSplitsBlock splits = (WrappedProgressSplitsBlock) get(PROGRESS_SPLITS, attempt);
    if (splits == null) {
      return null;
    }
    List<Integer> reached = new ArrayList<>();
    for (int ms : ProgressSplitsBlock.arrayGetWallclockTime(splits.burst())) {
      if (ms < 0) {
        break;
      }
      reached.add(ms);
    }
    return List.copyOf(reached);
  }

  /** When a map's task reported its map phase over (0: it did not). */
  static long mapFinishTime(TaskAttemptImpl attempt) {
    TaskAttemptStatus status = (TaskAttemptStatus) get(REPORTED_STATUS, attempt);
    return status == null ? 0 : status.mapFinishTime;
  }

  private static Field field(Class<?> owner, String name) {
    try {
      Field field = owner.getDeclaredField(name);
      field.setAccessible(true);
      return field;
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Hadoop's AM internals are not those of 3.4.3: " + owner.getSimpleName() + "."
          + name, e);
    }
  }

  private static Object get(Field field, Object target) {
    try {
      return field.get(target);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("reading " + field.getName(), e);
    }
  }

  private static Object call(Method method, Object target, Object... args) {
    try {
      return method.invoke(target, args);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("calling " + method.getName(), e);
    }
  }
}
