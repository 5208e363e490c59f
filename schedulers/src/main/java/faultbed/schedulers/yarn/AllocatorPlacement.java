package faultbed.schedulers.yarn;

import faultbed.schedulers.placement.Bandwidths;
import faultbed.schedulers.placement.CompletionTimes;
import faultbed.schedulers.placement.NodeView;
import faultbed.schedulers.placement.PendingMap;
import faultbed.schedulers.placement.PlacementPolicy;
import faultbed.schedulers.placement.ReducePlacement;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.split.JobSplit.TaskSplitMetaInfo;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptId;
import org.apache.hadoop.mapreduce.v2.api.records.TaskAttemptState;
import org.apache.hadoop.mapreduce.v2.api.records.TaskType;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.job.Job;
import org.apache.hadoop.mapreduce.v2.app.job.Task;
import org.apache.hadoop.mapreduce.v2.app.job.TaskAttempt;
import org.apache.hadoop.mapreduce.v2.app.job.event.JobCounterUpdateEvent;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.event.EventHandler;
import org.apache.hadoop.yarn.util.RackResolver;

/**
 * Network-aware placement made inside Hadoop's ApplicationMaster (see {@link PlacementAgent}). For
 * each container it snapshots the job as the policy needs it: the waiting maps with their splits'
 * lengths and replica hosts, the nodes with when each can take a task and how fast its maps have
 * computed, the map output each node holds, and the bandwidth the probes measured. A map container
 * whose node is no waiting map's preferred node, or a reduce container off the reduces' preferred
 * node ({@link ReducePlacement}), is left unassigned and Hadoop releases it; the reduces' requests
 * then name their preferred node, so the scheduler's node-local pass offers it.
 *
 * <p>A node's availability (the seed's AT) is now when it has a free slot ({@link #NODE_SLOTS},
 * counting this job's tasks there and its ApplicationMaster), else when its first task is expected to end (LATE's time left,
 * or the median map time less its elapsed time before it reports progress). A node that has given
 * the job no container for {@link #SILENT_NODE_MS} while it held none of the job's tasks is taken as
 * not taking work (busy with other jobs, or gone), so no map waits for it.
 */
public final class AllocatorPlacement {
  /** Slots a node has for this job's tasks, set by whoever knows the cluster; 0: never counted full. */
  public static final String NODE_SLOTS = "faultbed.placement.node-slots";
  /** How long a node may give no container before maps stop waiting for it, in ms. */
  public static final String SILENT_NODE_MS = "faultbed.placement.silent-node-ms";
  private static final long DEFAULT_SILENT_NODE_MS = 10_000;

  private static volatile AllocatorPlacement installed;

  private final PlacementPolicy policy;
  private final BandwidthWatch bandwidth;
  private final Map<String, Long> lastOffer = new HashMap<>();
  private long firstCall = -1;
  private Access access;

  private AllocatorPlacement(PlacementPolicy policy, BandwidthWatch bandwidth) {
    this.policy = policy;
    this.bandwidth = bandwidth;
  }

  static void install(PlacementPolicy policy, BandwidthWatch bandwidth) {
    installed = policy == PlacementPolicy.STOCK ? null : new AllocatorPlacement(policy, bandwidth);
  }

  /** Called in place of Hadoop's assignMapsWithLocality; false lets Hadoop's own run. */
  public static boolean assignMaps(Object scheduledRequests, List<?> containers) {
    AllocatorPlacement p = installed;
    if (p == null) {
      return false;
    }
    try {
      p.assignAll(scheduledRequests, containers);
      return true;
    } catch (ReflectiveOperationException e) {
      return unreachable(e);
    }
  }

  /** Another Hadoop than the one this was written for: say so, and let Hadoop place from now on. */
  private static boolean unreachable(ReflectiveOperationException e) {
    System.err.println(PlacementAgent.MARK + " cannot reach the allocator (" + e + "); Hadoop places this job's tasks");
    installed = null;
    return false;
  }

  /** What one call into the allocator sees: the allocator, its job's configuration, the AM's clock and the job. */
  private record Call(Object allocator, Configuration conf, long now, Job job) {}

  private Call enter(Object scheduled) throws ReflectiveOperationException {
    if (access == null) {
      access = new Access(scheduled);
    }
    Object allocator = access.outer.get(scheduled);
    AppContext context = (AppContext) access.getContext.invoke(allocator);
    long now = context.getClock().getTime();
    if (firstCall < 0) {
      firstCall = now;
    }
    return new Call(allocator, ((org.apache.hadoop.service.Service) allocator).getConfig(), now,
        context.getAllJobs().values().iterator().next());
  }

  private synchronized void assignAll(Object scheduled, List<?> containers) throws ReflectiveOperationException {
    Call call = enter(scheduled);
    Object allocator = call.allocator();
    Configuration conf = call.conf();
    long now = call.now();
    Job job = call.job();
    @SuppressWarnings("unchecked")
    Map<TaskAttemptId, Object> maps = (Map<TaskAttemptId, Object>) access.maps.get(scheduled);
    Iterator<?> it = containers.iterator();
    while (it.hasNext() && !maps.isEmpty() && (boolean) access.canAssignMaps.invoke(allocator)) {
      Container container = (Container) it.next();
      String host = container.getNodeId().getHost();
      lastOffer.put(host, now);
      if (container.getPriority().equals(access.reducePriority)) {
        continue; // a reduce container refused by reduce placement: Hadoop releases it
      }
      TaskAttemptId chosen;
      String why;
      Double expectedMs = null;
      Integer candidates = null;
      if (container.getPriority().equals(access.opportunisticPriority)) {
        // opportunistic maps carry no locality in Hadoop either: the oldest
        chosen = maps.keySet().iterator().next();
        why = "opportunistic, oldest";
      } else {
        List<PendingMap> waiting = new ArrayList<>();
        for (Map.Entry<TaskAttemptId, Object> e : maps.entrySet()) {
          if (!access.priority(e.getValue()).equals(access.opportunisticPriority)) {
            waiting.add(pending(job, e.getKey(), access.hosts(e.getValue())));
          }
        }
        Bandwidths bw = bandwidth.latest();
        CompletionTimes times = new CompletionTimes(nodes(job, host, waiting, bw, conf, now), bw);
        PlacementPolicy.Choice choice = policy.choose(host, waiting, times);
        if (choice.map().isEmpty()) {
          log("released", now, "MAP", container, host, "waiting", waiting.size(), "reason",
              "no waiting map prefers this node");
          reask(allocator, maps);
          continue;
        }
        chosen = attemptNamed(maps, choice.map().get().id());
        expectedMs = choice.completionMs();
        candidates = choice.candidates();
        why = "its preferred node; the candidate expected to complete " + (policy == PlacementPolicy.MIN_COMPLETION
            ? "first" : "last");
      }
      Object request = maps.remove(chosen);
      access.containerAssigned.invoke(scheduled, container, request);
      it.remove();
      countLocality(allocator, chosen, access.hosts(request), host);
      log("assigned", now, "MAP", container, host, "attempt", chosen.toString(), "expectedMs", expectedMs,
          "candidates", candidates, "reason", why);
    }
  }

  /**
   * Called before Hadoop's assignToReduce: true makes it assign nothing, so the container is
   * released, when the container's node is not where the reduces would finish first; the reduces'
   * requests then name that node. False (Hadoop gives the container its oldest reduce) otherwise.
   */
  public static boolean refuseReduce(Object scheduledRequests, Object container) {
    AllocatorPlacement p = installed;
    if (p == null) {
      return false;
    }
    try {
      return p.refuse(scheduledRequests, (Container) container);
    } catch (ReflectiveOperationException e) {
      return unreachable(e);
    }
  }

  private synchronized boolean refuse(Object scheduled, Container container) throws ReflectiveOperationException {
    Call call = enter(scheduled);
    Object allocator = call.allocator();
    long now = call.now();
    @SuppressWarnings("unchecked")
    Map<TaskAttemptId, Object> reduces = (Map<TaskAttemptId, Object>) access.reduces.get(scheduled);
    if (reduces.isEmpty() || !(boolean) access.canAssignReduces.invoke(allocator)) {
      return false;
    }
    String host = container.getNodeId().getHost();
    lastOffer.put(host, now);
    Bandwidths bw = bandwidth.latest();
    Map<String, Long> from = reduceInput(call.job());
    if (bw.isEmpty() || from.isEmpty()) {
      log("assigned", now, "REDUCE", container, host, "reason",
          bw.isEmpty() ? "no bandwidth measured yet" : "no map output yet");
      return false;
    }
    List<NodeView> nodes = nodes(call.job(), host, List.of(), bw, call.conf(), now);
    Optional<NodeView> preferred = ReducePlacement.preferred(from, nodes, bw);
    if (preferred.isEmpty() || preferred.get().host().equals(host)) {
      log("assigned", now, "REDUCE", container, host, "reason", "the reduces' preferred node");
      return false;
    }
    double meanPerByte = nodes.stream().mapToDouble(NodeView::computeMsPerByte).filter(d -> !Double.isNaN(d))
        .average().orElse(0);
    log("released", now, "REDUCE", container, host, "preferred", preferred.get().host(), "expectedMs",
        ReducePlacement.completionMs(from, preferred.get(), bw, meanPerByte), "reason",
        "the reduces would finish first on their preferred node");
    String[] there = {preferred.get().host()};
    String[] rack = {RackResolver.resolve(preferred.get().host()).getNetworkLocation()};
    for (Map.Entry<TaskAttemptId, Object> e : reduces.entrySet()) {
      Object old = e.getValue();
      access.decContainerReq.invoke(allocator, old);
      Object asked = Arrays.equals(access.hosts(old), there) ? old : access.withHosts(old, there, rack);
      e.setValue(asked);
      access.addContainerReq.invoke(allocator, asked);
    }
    return true;
  }

  /**
   * The bytes one reduce fetches from each node: every node's finished maps' output, and the
   * running maps' expected output (the finished ones' mean) at their nodes, split evenly between
   * the job's reduces.
   */
  private static Map<String, Long> reduceInput(Job job) {
    Map<String, Long> byNode = new HashMap<>();
    List<Long> outputs = new ArrayList<>();
    List<String> running = new ArrayList<>();
    for (Task t : job.getTasks(TaskType.MAP).values()) {
      for (TaskAttempt a : t.getAttempts().values()) {
        if (a.getNodeId() == null) {
          continue;
        }
        TaskAttemptState s = a.getState();
        if (s == TaskAttemptState.SUCCEEDED) {
          long bytes = outputBytes(a);
          outputs.add(bytes);
          byNode.merge(a.getNodeId().getHost(), bytes, Long::sum);
        } else if (s == TaskAttemptState.RUNNING || s == TaskAttemptState.STARTING) {
          running.add(a.getNodeId().getHost());
        }
      }
    }
    long mean = outputs.isEmpty() ? 0 : outputs.stream().mapToLong(Long::longValue).sum() / outputs.size();
    running.forEach(h -> byNode.merge(h, mean, Long::sum));
    int reduces = Math.max(1, job.getTotalReduces());
    Map<String, Long> share = new HashMap<>();
    byNode.forEach((h, b) -> share.put(h, b / reduces));
    return share;
  }

  private static long outputBytes(TaskAttempt attempt) {
    org.apache.hadoop.mapreduce.Counters counters = attempt.getCounters();
    return counters == null ? 0 : counters.findCounter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES).getValue();
  }

  /**
   * Tells the ResourceManager again how many containers the waiting maps need. It counted the
   * container it gave as one of them, and Hadoop's allocator sends its (absolute) counts only for
   * requests that changed: without this, every container released here would be one fewer the
   * scheduler thinks the job wants, and the job would starve.
   */
  private void reask(Object allocator, Map<TaskAttemptId, Object> maps) throws ReflectiveOperationException {
    for (Object request : maps.values()) {
      if (access.priority(request).equals(access.opportunisticPriority)) {
        continue; // asked for apart, as Hadoop asks for them
      }
      access.decContainerReq.invoke(allocator, request);
      access.addContainerReq.invoke(allocator, request);
    }
  }

  /** One decision, as a line of JSON the harness reads into the run's record. */
  private static void log(String event, long now, String type, Container container, String host, Object... more) {
    Map<String, Object> line = new java.util.LinkedHashMap<>();
    line.put("event", event);
    line.put("atEpochMs", now);
    line.put("type", type);
    line.put("container", container.getId().toString());
    line.put("host", host);
    for (int i = 0; i + 1 < more.length; i += 2) {
      line.put((String) more[i], more[i + 1]);
    }
    System.err.println(PlacementAgent.MARK + " " + Json.write(line));
  }

  private static TaskAttemptId attemptNamed(Map<TaskAttemptId, Object> maps, String id) {
    return maps.keySet().stream().filter(a -> a.toString().equals(id)).findFirst().orElseThrow();
  }

  private PendingMap pending(Job job, TaskAttemptId attempt, String[] requestHosts) throws ReflectiveOperationException {
    Task task = job.getTask(attempt.getTaskId());
    TaskSplitMetaInfo split = (TaskSplitMetaInfo) access.splitInfo.invoke(task);
    return new PendingMap(attempt.toString(), split.getInputDataLength(), Arrays.asList(requestHosts));
  }

  /** Every node the job knows of, with its availability and compute rate. */
  private List<NodeView> nodes(Job job, String offered, List<PendingMap> waiting, Bandwidths bw, Configuration conf,
      long now) {
    Set<String> hosts = new LinkedHashSet<>(bandwidth.nodes());
    hosts.add(offered);
    waiting.forEach(m -> hosts.addAll(m.replicaHosts()));
    int slots = conf.getInt(NODE_SLOTS, 0);
    long silentMs = conf.getLong(SILENT_NODE_MS, DEFAULT_SILENT_NODE_MS);
    Map<String, List<TaskAttempt>> running = new HashMap<>();
    Map<String, List<Double>> msPerByte = new HashMap<>();
    List<Long> mapTimes = new ArrayList<>();
    CompletionTimes transfers = new CompletionTimes(hosts.stream().map(NodeView::freeNow).toList(), bw);
    for (TaskType type : TaskType.values()) {
      for (Task t : job.getTasks(type).values()) {
        for (TaskAttempt a : t.getAttempts().values()) {
          TaskAttemptState s = a.getState();
          if (a.getNodeId() == null) {
            continue;
          }
          String h = a.getNodeId().getHost();
          if (s == TaskAttemptState.STARTING || s == TaskAttemptState.RUNNING || s == TaskAttemptState.COMMIT_PENDING) {
            running.computeIfAbsent(h, k -> new ArrayList<>()).add(a);
          } else if (s == TaskAttemptState.SUCCEEDED && type == TaskType.MAP && a.getLaunchTime() > 0) {
            long ms = a.getFinishTime() - a.getLaunchTime();
            mapTimes.add(ms);
            try {
              TaskSplitMetaInfo split = (TaskSplitMetaInfo) access.splitInfo.invoke(t);
              long bytes = split.getInputDataLength();
              if (bytes > 0) {
                PendingMap as = new PendingMap(a.getID().toString(), bytes, Arrays.asList(split.getLocations()));
                double transfer = transfers.transferMs(as, NodeView.freeNow(h));
                msPerByte.computeIfAbsent(h, k -> new ArrayList<>()).add(Math.max(0, ms - transfer) / bytes);
              }
            } catch (ReflectiveOperationException e) {
              // no split, no rate
            }
          }
        }
      }
    }
    double medianMapMs = median(mapTimes.stream().map(Long::doubleValue).toList());
    List<NodeView> views = new ArrayList<>();
    // the AM holds a slot of its own node for the whole job
    String amHost = System.getenv("NM_HOST");
    for (String h : hosts) {
      List<TaskAttempt> here = running.getOrDefault(h, List.of());
      int held = here.size() + (h.equals(amHost) ? 1 : 0);
      double available;
      if (h.equals(offered)) {
        available = 0;
      } else if (here.isEmpty() && now - Math.max(lastOffer.getOrDefault(h, firstCall), firstCall) > silentMs) {
        available = Double.POSITIVE_INFINITY;
      } else if (slots <= 0 || held < slots) {
        available = 0;
      } else {
        // full with the AM alone: it never frees
        available = here.stream().mapToDouble(a -> timeLeftMs(a, now, medianMapMs)).min()
            .orElse(Double.POSITIVE_INFINITY);
      }
      views.add(new NodeView(h, available, median(msPerByte.getOrDefault(h, List.of()))));
    }
    return views;
  }

  private static double timeLeftMs(TaskAttempt a, long now, double medianMapMs) {
    long elapsed = Math.max(1, now - a.getLaunchTime());
    float p = a.getProgress();
    if (p > 0) {
      return (1 - p) / (p / elapsed);
    }
    return Double.isNaN(medianMapMs) ? 0 : Math.max(0, medianMapMs - elapsed);
  }

  private static double median(List<Double> values) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    List<Double> v = values.stream().sorted().toList();
    int n = v.size();
    return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
  }

  /** The job's locality counters, as Hadoop's own pass would count this assignment. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private void countLocality(Object allocator, TaskAttemptId attempt, String[] requestHosts, String host)
      throws ReflectiveOperationException {
    JobCounter counter;
    if (Arrays.asList(requestHosts).contains(host)) {
      counter = JobCounter.DATA_LOCAL_MAPS;
    } else {
      String rack = RackResolver.resolve(host).getNetworkLocation();
      boolean rackLocal = Arrays.stream(requestHosts).anyMatch(h -> RackResolver.resolve(h).getNetworkLocation().equals(rack));
      counter = rackLocal ? JobCounter.RACK_LOCAL_MAPS : JobCounter.OTHER_LOCAL_MAPS;
    }
    JobCounterUpdateEvent update = new JobCounterUpdateEvent(attempt.getTaskId().getJobId());
    update.addCounterUpdate(counter, 1);
    ((EventHandler) access.eventHandler.get(allocator)).handle(update);
  }

  /** The allocator's private parts this needs, found once. */
  private static final class Access {
    final Field outer;
    final Field maps;
    final Field reduces;
    final Method canAssignReduces;
    final Priority reducePriority;
    final Field requestAttempt;
    final Field requestCapability;
    final Field requestTime;
    final Field requestLabel;
    final java.lang.reflect.Constructor<?> newRequest;
    final Method containerAssigned;
    final Method canAssignMaps;
    final Method getContext;
    final Field eventHandler;
    final Method decContainerReq;
    final Method addContainerReq;
    final Method splitInfo;
    final Field requestHosts;
    final Field requestPriority;
    final Priority opportunisticPriority;

    Access(Object scheduled) throws ReflectiveOperationException {
      Class<?> sr = scheduled.getClass();
      outer = accessible(sr.getDeclaredField("this$0"));
      Class<?> allocator = outer.getType();
      maps = accessible(sr.getDeclaredField("maps"));
      reduces = accessible(sr.getDeclaredField("reduces"));
      Class<?> request = Class.forName("org.apache.hadoop.mapreduce.v2.app.rm.RMContainerRequestor$ContainerRequest",
          false, sr.getClassLoader());
      containerAssigned = accessible(sr.getDeclaredMethod("containerAssigned", Container.class, request));
      canAssignMaps = accessible(allocator.getDeclaredMethod("canAssignMaps"));
      canAssignReduces = accessible(allocator.getDeclaredMethod("canAssignReduces"));
      Class<?> communicator = Class.forName("org.apache.hadoop.mapreduce.v2.app.rm.RMCommunicator", false,
          sr.getClassLoader());
      getContext = accessible(communicator.getDeclaredMethod("getContext"));
      eventHandler = accessible(communicator.getDeclaredField("eventHandler"));
      Class<?> requestor = Class.forName("org.apache.hadoop.mapreduce.v2.app.rm.RMContainerRequestor", false,
          sr.getClassLoader());
      decContainerReq = accessible(requestor.getDeclaredMethod("decContainerReq", request));
      addContainerReq = accessible(requestor.getDeclaredMethod("addContainerReq", request));
      splitInfo = accessible(Class.forName("org.apache.hadoop.mapreduce.v2.app.job.impl.MapTaskImpl", false,
          sr.getClassLoader()).getDeclaredMethod("getTaskSplitMetaInfo"));
      requestHosts = accessible(request.getDeclaredField("hosts"));
      requestPriority = accessible(request.getDeclaredField("priority"));
      requestAttempt = accessible(request.getDeclaredField("attemptID"));
      requestCapability = accessible(request.getDeclaredField("capability"));
      requestTime = accessible(request.getDeclaredField("requestTimeMs"));
      requestLabel = accessible(request.getDeclaredField("nodeLabelExpression"));
      newRequest = accessible(request.getDeclaredConstructor(TaskAttemptId.class, Resource.class, String[].class,
          String[].class, Priority.class, long.class, String.class));
      reducePriority = (Priority) accessible(allocator.getDeclaredField("PRIORITY_REDUCE")).get(null);
      opportunisticPriority = (Priority) accessible(allocator.getDeclaredField("PRIORITY_OPPORTUNISTIC_MAP")).get(null);
    }

    String[] hosts(Object request) throws IllegalAccessException {
      String[] h = (String[]) requestHosts.get(request);
      return h == null ? new String[0] : h;
    }

    /** The same request (attempt, size, priority, age) asking for {@code hosts} instead. */
    Object withHosts(Object request, String[] hosts, String[] racks) throws ReflectiveOperationException {
      return newRequest.newInstance(requestAttempt.get(request), requestCapability.get(request), hosts, racks,
          requestPriority.get(request), requestTime.get(request), requestLabel.get(request));
    }

    Priority priority(Object request) throws IllegalAccessException {
      return (Priority) requestPriority.get(request);
    }

    private static <T extends java.lang.reflect.AccessibleObject> T accessible(T member) {
      member.setAccessible(true);
      return member;
    }
  }
}
