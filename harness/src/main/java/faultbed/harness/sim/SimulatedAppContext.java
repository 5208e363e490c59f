package faultbed.harness.sim;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.mapreduce.v2.api.records.JobId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.ClusterInfo;
import org.apache.hadoop.mapreduce.v2.app.TaskAttemptFinishingMonitor;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.apache.hadoop.mapreduce.v2.app.job.Task;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.event.Event;
import org.apache.hadoop.yarn.event.EventHandler;
import org.apache.hadoop.yarn.security.client.ClientToAMTokenSecretManager;
import org.apache.hadoop.yarn.util.Clock;

/** The AppContext of a simulated ApplicationMaster: one job, the virtual clock, the event loop. */
final class SimulatedAppContext implements AppContext {
  /** The ApplicationMaster's own address, below the nodes' range. */
  static final String AM_ADDRESS = "198.18.0.1";

  private final ApplicationAttemptId attemptId;
  private final Clock clock;
  private final EventHandler<Event> eventHandler;
  private final String user;
  private final ClusterInfo clusterInfo = new ClusterInfo();
  private final Map<JobId, Job> jobs = new LinkedHashMap<>();
  private TaskAttemptFinishingMonitor finishingMonitor;

  SimulatedAppContext(ApplicationAttemptId attemptId, Clock clock, EventHandler<Event> eventHandler, String user) {
    this.attemptId = attemptId;
    this.clock = clock;
    this.eventHandler = eventHandler;
    this.user = user;
  }

  void setFinishingMonitor(TaskAttemptFinishingMonitor monitor) {
    this.finishingMonitor = monitor;
  }

  /** DefaultSpeculator and its estimators find the job here, seen through tasksInIndexOrder. */
  void addJob(Job job) {
    jobs.put(job.getID(), tasksInIndexOrder(job));
  }

  /**
   * JobImpl.getTasks(TaskType) is a HashMap keyed by TaskId, whose hash mixes in an enum's identity
   * hash, so its order changes between JVMs; DefaultSpeculator breaks ties by that order. This view
   * returns the same tasks ordered by index and passes every other call through.
   */
  private static Job tasksInIndexOrder(Job job) {
    return (Job) Proxy.newProxyInstance(Job.class.getClassLoader(), new Class<?>[] {Job.class},
        (proxy, method, args) -> {
          if (method.getName().equals("getTasks") && args != null && args.length == 1
              && args[0] instanceof TaskType type) {
            Map<TaskId, Task> ordered = new LinkedHashMap<>();
            job.getTasks(type).entrySet().stream()
                .sorted(Comparator.comparingInt(e -> e.getKey().getId()))
                .forEach(e -> ordered.put(e.getKey(), e.getValue()));
            return ordered;
          }
          if (method.getName().equals("equals") && args != null && args.length == 1) {
            return proxy == args[0];
          }
          if (method.getName().equals("hashCode") && args == null) {
            return System.identityHashCode(proxy);
          }
          try {
            return method.invoke(job, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  @Override
  public ApplicationId getApplicationID() {
    return attemptId.getApplicationId();
  }

  @Override
  public ApplicationAttemptId getApplicationAttemptId() {
    return attemptId;
  }

  @Override
  public String getApplicationName() {
    return "simulated";
  }

  @Override
  public long getStartTime() {
    return 0;
  }

  @Override
  public CharSequence getUser() {
    return user;
  }

  @Override
  public Job getJob(JobId jobId) {
    return jobs.get(jobId);
  }

  @Override
  public Map<JobId, Job> getAllJobs() {
    return jobs;
  }

  @Override
  public EventHandler<Event> getEventHandler() {
    return eventHandler;
  }

  @Override
  public Clock getClock() {
    return clock;
  }

  @Override
  public ClusterInfo getClusterInfo() {
    return clusterInfo;
  }

  @Override
  public Set<String> getBlacklistedNodes() {
    return Set.of();
  }

  @Override
  public ClientToAMTokenSecretManager getClientToAMTokenSecretManager() {
    return null;
  }

  @Override
  public boolean isLastAMRetry() {
    return true;
  }

  /** JobImpl.getState hides final states until the AM has unregistered; there is no RM to unregister from. */
  @Override
  public boolean hasSuccessfullyUnregistered() {
    return true;
  }

  @Override
  public String getNMHostname() {
    return AM_ADDRESS;
  }

  @Override
  public TaskAttemptFinishingMonitor getTaskAttemptFinishingMonitor() {
    return finishingMonitor;
  }

  @Override
  public String getHistoryUrl() {
    return null;
  }

  @Override
  public void setHistoryUrl(String historyUrl) {
  }
}
