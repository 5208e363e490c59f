package faultbed.schedulers.yarn;

import faultbed.schedulers.AttemptSnapshot;
import faultbed.schedulers.AttemptState;
import faultbed.schedulers.Backup;
import faultbed.schedulers.JobSnapshot;
import faultbed.schedulers.NodeVerdict;
import faultbed.schedulers.Phase;
import faultbed.schedulers.PolicySettings;
import faultbed.schedulers.SpeculationPolicy;
import faultbed.schedulers.TaskSnapshot;
import faultbed.schedulers.TaskState;
import faultbed.schedulers.TaskType;
import faultbed.schedulers.policies.Policies;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.v2.api.records.JobId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskId;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.apache.hadoop.mapreduce.v2.app.job.Task;
import org.apache.hadoop.mapreduce.v2.app.job.TaskAttempt;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptKillEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptStatusUpdateEvent.TaskAttemptStatus;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskEventType;
import org.apache.hadoop.mapreduce.v2.app.speculate.Speculator;
import org.apache.hadoop.mapreduce.v2.app.speculate.SpeculatorEvent;
import org.apache.hadoop.service.AbstractService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs any {@link SpeculationPolicy} inside the real MR ApplicationMaster, in place of Hadoop's
 * DefaultSpeculator ({@code yarn.app.mapreduce.am.job.speculator.class}).
 *
 * <p>Every scan (one second times the time scale) it snapshots the job, asks the policy which tasks
 * to back up, and sends {@code T_ADD_SPEC_ATTEMPT} for each, like DefaultSpeculator does. Backups are
 * only asked for while no task of that type waits for its first container, so speculation never
 * competes with work not yet started (the seeds speculate only when a slot would otherwise idle).
 *
 * <p>Node choice: a YARN AM cannot say where a container goes. When a backup is placed, the policy
 * judges the node; a refused backup is killed, and Hadoop's TaskImpl then schedules a fresh attempt
 * for the task, which asks the RM again. After {@link #MAX_REFUSALS} refusals for one task the next
 * placement is kept wherever it lands, so a cluster of only slow nodes still gets its backups.
 *
 * <p>Every decision and placement is logged as one line starting with {@link #LOG_MARK} followed by
 * JSON, on the AM's own log, where the harness reads it after the job.
 */
public class PolicySpeculator extends AbstractService implements Speculator {

  public static final String POLICY = "faultbed.speculation.policy";
  public static final String PARAM_PREFIX = "faultbed.speculation.param.";
  public static final String TIME_SCALE = "faultbed.time.scale";
  public static final String SLOTS = "faultbed.speculation.slots";
  public static final String STATE_DIR = "faultbed.speculation.state-dir";
  public static final String MAX_REFUSALS = "faultbed.speculation.max-refusals";
  public static final String LOG_MARK = "FAULTBED-SPECULATION ";

  private static final Logger LOG = LoggerFactory.getLogger(PolicySpeculator.class);

  private final AppContext context;
  private final SpeculationPolicy policy;
  private final PolicySettings settings;
  private final long scanMs;
  private final int maxRefusals;

  private final Map<TaskType, AtomicInteger> containerNeeds = new EnumMap<>(TaskType.class);
  private final Map<TaskAttemptId, Map<Phase, Long>> phaseSeen = new ConcurrentHashMap<>();
  private final Set<JobId> jobs = ConcurrentHashMap.newKeySet();
  // Per task that got a backup: the attempts it had when the backup was asked for.
  private final Map<TaskId, Set<TaskAttemptId>> before = new HashMap<>();
  private final Set<TaskAttemptId> judged = new HashSet<>();
  private final Map<TaskId, Integer> refusals = new HashMap<>();
  private final Map<Object, String> names = new java.util.concurrent.ConcurrentHashMap<>();
  private volatile boolean stopped;
  private Thread scanner;

  public PolicySpeculator(Configuration conf, AppContext context) {
    super(PolicySpeculator.class.getName());
    this.context = context;
    String name = conf.get(POLICY);
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException(POLICY + ": expected a policy name or class name, got nothing");
    }
    this.policy = Policies.create(name.trim());
    Map<String, String> params = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : conf.getPropsWithPrefix(PARAM_PREFIX).entrySet()) {
      params.put(e.getKey(), e.getValue());
    }
    String stateDir = conf.get(STATE_DIR);
    int slots = conf.getInt(SLOTS, 8);
    this.settings = new PolicySettings(conf.getDouble(TIME_SCALE, 1.0), slots, params,
        stateDir == null ? null : Path.of(stateDir));
    this.policy.configure(settings);
    this.scanMs = Math.max(100, Math.round(1000 * settings.timeScale()));
    this.maxRefusals = conf.getInt(MAX_REFUSALS, 3);
    containerNeeds.put(TaskType.MAP, new AtomicInteger());
    containerNeeds.put(TaskType.REDUCE, new AtomicInteger());
    Map<String, Object> started = new LinkedHashMap<>();
    started.put("event", "configured");
    started.put("policy", policy.name());
    started.put("timeScale", settings.timeScale());
    started.put("slots", slots);
    started.put("params", params);
    log(started);
  }

  /** How long the AM's thread waits between {@link #scan()}s: a second times the time scale, at least 100 ms. */
  public long scanIntervalMs() {
    return scanMs;
  }

  @Override
  protected void serviceStart() throws Exception {
    scanner = new Thread(() -> {
      while (!stopped) {
        try {
          scan();
        } catch (RuntimeException e) {
          // A policy bug must not take the AM down: the job runs on without speculation this round.
          LOG.warn("speculation policy " + policy.name() + " failed", e);
        }
        try {
          Thread.sleep(scanMs);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "faultbed speculation");
    scanner.setDaemon(true);
    scanner.start();
    super.serviceStart();
  }

  @Override
  protected void serviceStop() throws Exception {
    stopped = true;
    if (scanner != null) {
      scanner.interrupt();
    }
    for (JobId id : jobs) {
      Job job = context.getJob(id);
      if (job != null) {
        try {
          policy.jobFinished(snapshot(job));
        } catch (RuntimeException e) {
          LOG.warn("speculation policy " + policy.name() + " failed at job end", e);
        }
      }
    }
    super.serviceStop();
  }

  @Override
  public void handle(SpeculatorEvent event) {
    switch (event.getType()) {
      case ATTEMPT_STATUS_UPDATE -> handleAttempt(event.getReportedStatus());
      case TASK_CONTAINER_NEED_UPDATE -> containerNeeds.get(type(event.getTaskID()))
          .addAndGet(event.containersNeededChange());
      case JOB_CREATE -> jobs.add(event.getJobID());
      case ATTEMPT_START -> jobs.add(event.getTaskID().getJobId());
      default -> { }
    }
  }

  @Override
  public void handleAttempt(TaskAttemptStatus status) {
    if (status == null || status.id == null) {
      return;
    }
    jobs.add(status.id.getTaskId().getJobId());
    long now = context.getClock().getTime();
    Map<Phase, Long> seen = phaseSeen.computeIfAbsent(status.id, k -> new ConcurrentHashMap<>());
    if (status.phase != null) {
      seen.putIfAbsent(Phase.valueOf(status.phase.name()), now);
    }
    if (status.mapFinishTime > 0) {
      seen.putIfAbsent(Phase.SORT, status.mapFinishTime);
    }
    if (status.shuffleFinishTime > 0) {
      seen.putIfAbsent(Phase.SORT, status.shuffleFinishTime);
    }
    if (status.sortFinishTime > 0) {
      seen.putIfAbsent(Phase.REDUCE, status.sortFinishTime);
    }
  }

  /**
   * One round: judge the backups just placed, then ask the policy which tasks to back up. The AM's
   * thread calls it every {@link #scanIntervalMs()}; a driver on a virtual clock calls it itself.
   */
  public synchronized void scan() {
    for (JobId id : jobs) {
      Job job = context.getJob(id);
      if (job == null) {
        continue;
      }
      JobSnapshot snap = snapshot(job);
      judgePlacements(job, snap);
      for (Backup b : policy.choose(snap)) {
        launch(job, snap, b);
      }
    }
  }

  /** Asks the policy about every backup that has just been given a node. */
  private void judgePlacements(Job job, JobSnapshot snap) {
    for (Map.Entry<TaskId, Set<TaskAttemptId>> e : before.entrySet()) {
      Task task = job.getTask(e.getKey());
      if (task == null) {
        continue;
      }
      for (TaskAttempt a : task.getAttempts().values()) {
        if (e.getValue().contains(a.getID()) || a.getNodeId() == null || !judged.add(a.getID())
            || a.isFinished()) {
          continue;
        }
        String node = a.getNodeId().toString();
        TaskSnapshot ts = snap.task(e.getKey().toString());
        NodeVerdict v = policy.judgeBackupNode(node, ts, snap);
        int refused = refusals.getOrDefault(e.getKey(), 0);
        boolean kill = !v.accepted() && refused < maxRefusals;
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("event", "placed");
        entry.put("atEpochMs", snap.nowMs());
        entry.put("task", e.getKey().toString());
        entry.put("attempt", a.getID().toString());
        entry.put("node", node);
        entry.put("accepted", v.accepted());
        entry.put("killed", kill);
        entry.put("reason", v.reason() + (!v.accepted() && !kill
            ? "; kept anyway after " + refused + " refusals" : ""));
        log(entry);
        if (kill) {
          refusals.put(e.getKey(), refused + 1);
          context.getEventHandler().handle(new TaskAttemptKillEvent(a.getID(),
              "faultbed: " + policy.name() + " refused a backup on " + node + ": " + v.reason()));
        }
      }
    }
  }

  private void launch(Job job, JobSnapshot snap, Backup b) {
    TaskId id = taskId(job, b.taskId());
    if (id == null) {
      LOG.warn("policy {} chose unknown task {}", policy.name(), b.taskId());
      return;
    }
    TaskType type = id.getTaskType() == org.apache.hadoop.mapreduce.v2.api.records.TaskType.MAP
        ? TaskType.MAP : TaskType.REDUCE;
    if (containerNeeds.get(type).get() > 0 || before.containsKey(id)) {
      return;
    }
    TaskSnapshot ts = snap.task(b.taskId());
    if (ts.soleRunningAttempt().isEmpty()) {
      return;
    }
    before.put(id, new HashSet<>(job.getTask(id).getAttempts().keySet()));
    Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("event", "backup");
    entry.put("atEpochMs", snap.nowMs());
    entry.put("task", b.taskId());
    entry.put("original", ts.soleRunningAttempt().get().id());
    entry.put("originalNode", ts.soleRunningAttempt().get().node());
    entry.put("reason", b.reason());
    entry.put("evidence", b.evidence());
    log(entry);
    context.getEventHandler().handle(new TaskEvent(id, TaskEventType.T_ADD_SPEC_ATTEMPT));
  }

  /** The job's task of that name, or null: parsed, not searched for, as a job may have tens of thousands. */
  private static TaskId taskId(Job job, String id) {
    TaskId parsed;
    try {
      parsed = org.apache.hadoop.mapreduce.TypeConverter.toYarn(org.apache.hadoop.mapreduce.TaskID.forName(id));
    } catch (IllegalArgumentException e) {
      return null;
    }
    return job.getTask(parsed) == null ? null : parsed;
  }

  private static TaskType type(TaskId id) {
    return id.getTaskType() == org.apache.hadoop.mapreduce.v2.api.records.TaskType.MAP
        ? TaskType.MAP : TaskType.REDUCE;
  }

  /**
   * An id's name, made once: Hadoop's ids format their numbers anew on every toString, and a scan
   * names every task and attempt of the job (tens of thousands on a large cluster, every second).
   */
  private String name(Object id) {
    return names.computeIfAbsent(id, Object::toString);
  }

  JobSnapshot snapshot(Job job) {
    long now = context.getClock().getTime();
    List<TaskSnapshot> tasks = new ArrayList<>();
    for (Task t : job.getTasks().values()) {
      Set<TaskAttemptId> original = before.get(t.getID());
      List<AttemptSnapshot> attempts = new ArrayList<>();
      for (TaskAttempt a : t.getAttempts().values()) {
        boolean backup = original != null && !original.contains(a.getID());
        attempts.add(attempt(a, backup));
      }
      attempts.sort(java.util.Comparator.comparing(AttemptSnapshot::id));
      tasks.add(new TaskSnapshot(name(t.getID()), type(t.getID()), state(t), attempts,
          original != null));
    }
    tasks.sort(java.util.Comparator.comparing(TaskSnapshot::id));
    return new JobSnapshot(now, tasks);
  }

  private AttemptSnapshot attempt(TaskAttempt a, boolean backup) {
    Map<Phase, Long> phases = new EnumMap<>(Phase.class);
    Map<Phase, Long> seen = phaseSeen.get(a.getID());
    if (seen != null) {
      phases.putAll(seen);
    }
    long launch = a.getLaunchTime() > 0 ? a.getLaunchTime() : -1;
    boolean map = a.getID().getTaskId().getTaskType()
        == org.apache.hadoop.mapreduce.v2.api.records.TaskType.MAP;
    if (launch > 0) {
      phases.put(map ? Phase.MAP : Phase.SHUFFLE, launch);
    }
    if (a.getShuffleFinishTime() > 0) {
      phases.put(Phase.SORT, a.getShuffleFinishTime());
    }
    if (a.getSortFinishTime() > 0) {
      phases.put(Phase.REDUCE, a.getSortFinishTime());
    }
    AttemptState state = switch (a.getState()) {
      // STARTING covers both "waiting for a container" and "container assigned, launching".
      case NEW -> AttemptState.NEW;
      case STARTING -> a.getNodeId() == null ? AttemptState.NEW : AttemptState.RUNNING;
      case RUNNING, COMMIT_PENDING -> AttemptState.RUNNING;
      case SUCCEEDED -> AttemptState.SUCCEEDED;
      case FAILED -> AttemptState.FAILED;
      case KILLED -> AttemptState.KILLED;
    };
    Phase phase = a.getPhase() == null ? Phase.STARTING : Phase.valueOf(a.getPhase().name());
    return new AttemptSnapshot(name(a.getID()), a.getNodeId() == null ? null : name(a.getNodeId()),
        state, a.getProgress(), phase, launch, a.getFinishTime() > 0 ? a.getFinishTime() : -1, phases, backup);
  }

  private static TaskState state(Task t) {
    return switch (t.getState()) {
      case NEW, SCHEDULED -> TaskState.PENDING;
      case RUNNING -> TaskState.RUNNING;
      case SUCCEEDED -> TaskState.SUCCEEDED;
      case FAILED -> TaskState.FAILED;
      case KILLED -> TaskState.KILLED;
    };
  }

  private void log(Map<String, Object> entry) {
    decided(LOG_MARK + Json.write(entry));
  }

  /**
   * Where each decision line goes: the AM's log, where the harness reads it after the job. Called
   * from the constructor too (the "configured" line), before a subclass's fields are set.
   */
  protected void decided(String line) {
    LOG.info(line);
  }
}
