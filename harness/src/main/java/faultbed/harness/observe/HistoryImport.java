package faultbed.harness.observe;

import faultbed.harness.workload.SortWorkload;
import faultbed.harness.workload.SyntheticWorkload;
import faultbed.harness.workload.WordCountWorkload;
import faultbed.results.RunHistory;
import faultbed.results.RunRecord;
import faultbed.results.RunRecord.AttemptRecord;
import faultbed.results.RunRecord.NodeInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.AMInfo;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.JobInfo;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser.TaskAttemptInfo;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormatCounter;

/**
 * A job history file ({@code .jhist}) that a real cluster's ApplicationMaster wrote, read into a run
 * record: its task attempts as faultbed records its own runs' (the same reader), its nodes the
 * NodeManagers its attempts ran on, and, when the job's configuration file lies beside it (the
 * history server keeps {@code <job>_conf.xml} there), the settings in force. What a history file
 * does not hold is absent: faults, the ResourceManager's node states, fetch-failure reports. So a
 * user's own cluster's jobs can be reported on, compared, and fitted into a simulation's time model.
 */
public final class HistoryImport {
  private HistoryImport() {}

  /** The backend name records read from history files carry: the cluster was none faultbed started. */
  public static final String BACKEND = "history";

  /** The workload types a job can be read as (a time model keeps its times by them). */
  public static final List<String> WORKLOADS = List.of(WordCountWorkload.TYPE, SortWorkload.TYPE, SyntheticWorkload.TYPE);

  /** How the jobs of faultbed's workloads and Hadoop's own examples are named, by workload type. */
  private static final Map<String, String> KNOWN_JOBS = Map.of(
      WordCountWorkload.JOB_NAME, WordCountWorkload.TYPE, "word count", WordCountWorkload.TYPE,
      SortWorkload.JOB_NAME, SortWorkload.TYPE, "sorter", SortWorkload.TYPE,
      SyntheticWorkload.JOB_NAME, SyntheticWorkload.TYPE);

  /**
   * The history file as a run record.
   *
   * @param scenario the name records of the import share (a suite's)
   * @param variant  the variant the job belongs to (e.g. before or after a change)
   * @param workload the workload type the job is, or null to read it from the job's name (faultbed's
   *                 workloads and Hadoop's WordCount and Sort examples)
   * @throws IllegalArgumentException, one line naming the file, when it is no history file or its job is
   *                                   of no known workload and none was given
   */
  public static RunRecord read(java.nio.file.Path jhist, String scenario, String variant, int runIndex, String workload) {
    List<String> notes = new ArrayList<>();
    HistoryReader.Parsed parsed;
    try {
      FileSystem local = FileSystem.getLocal(new Configuration(false));
      parsed = HistoryReader.parse(local, new Path(jhist.toAbsolutePath().toUri()), notes);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(jhist + ": expected a job history file (.jhist) a MapReduce AM wrote, got: "
          + e.getMessage(), e);
    }
    JobInfo info = parsed.info();
    if (info.getJobId() == null || info.getSubmitTime() <= 0) {
      throw new IllegalArgumentException(jhist + ": expected a job history file (.jhist) a MapReduce AM wrote, got one"
          + " with no job submission in it");
    }
    String type = workload != null ? workload : workloadOf(info.getJobname());
    if (type == null) {
      throw new IllegalArgumentException(jhist + ": the job \"" + info.getJobname() + "\" is of no workload faultbed"
          + " knows by name (" + new TreeSet<>(KNOWN_JOBS.keySet()) + "); say which it is like with --workload");
    }
    Map<String, Integer> addresses = new HashMap<>();
    List<String> nodeIds = nodes(info, addresses);
    NodeLocator locator = NodeLocator.ofAddresses(addresses);
    long submit = info.getSubmitTime();
    SortedMap<Integer, HistoryReader.Parsed> histories = new TreeMap<>();
    List<RunRecord.AmAttempt> ams = HistoryReader.amAttempts(info, submit, locator, node -> 0L);
    histories.put(ams.isEmpty() ? 1 : ams.get(ams.size() - 1).attempt(), parsed);
    List<AttemptRecord> attempts = HistoryReader.attempts(histories, submit, Map.of(), locator);
    Map<String, String> settings = settings(jhist, info, notes);
    List<NodeInfo> nodes = new ArrayList<>();
    for (int i = 0; i < nodeIds.size(); i++) {
      nodes.add(new NodeInfo(i, nodeIds.get(i), port(nodeIds.get(i)), List.of(), List.of(), null, null, null));
    }
    long inputBytes = inputBytes(info);
    Map<String, String> parameters = new TreeMap<>();
    parameters.put("maps", Long.toString(info.getTotalMaps()));
    parameters.put("reduces", Long.toString(info.getTotalReduces()));
    if (inputBytes > 0) {
      parameters.put("bytes", Long.toString(inputBytes));
    }
    String status = info.getJobStatus();
    boolean succeeded = "SUCCEEDED".equals(status);
    notes.add("imported from the job history file " + jhist.getFileName() + " (job \"" + info.getJobname()
        + "\"): a history file holds no faults, node states or fetch-failure reports");
    RunHistory history = new RunHistory(info.getJobId().toString(), scenario, variant, runIndex, 0,
        Instant.ofEpochMilli(submit).toString())
        .append(new RunHistory.ClusterSeen(new RunRecord.ClusterInfo(BACKEND, nodes.size(), 0, 0), nodes))
        .append(new RunHistory.Configured(settings))
        .append(new RunHistory.WorkloadMade(new RunRecord.WorkloadInfo(type, parameters, inputBytes, 0)))
        .append(new RunHistory.AttemptsRead(attempts))
        .append(new RunHistory.AmAttemptsRead(ams))
        .append(new RunHistory.JobEnded(new RunRecord.JobOutcome(info.getJobId().toString(), status, succeeded, submit,
            info.getFinishTime() > 0 ? info.getFinishTime() - submit : null, (int) info.getTotalMaps(),
            (int) info.getTotalReduces(), info.getErrorInfo() == null || info.getErrorInfo().isBlank() ? null
                : info.getErrorInfo())));
    notes.forEach(history::note);
    return history.record();
  }

  /** The workload type a job's name says, or null. faultbed's own runs append their scenario and run to it. */
  static String workloadOf(String jobName) {
    if (jobName == null) {
      return null;
    }
    return KNOWN_JOBS.entrySet().stream().filter(e -> jobName.equals(e.getKey()) || jobName.startsWith(e.getKey() + " "))
        .map(Map.Entry::getValue).findFirst().orElse(null);
  }

  /**
   * The NodeManagers the job's attempts and AMs ran on, as {@code host:port} node ids in order, and
   * every address the history names each by (an attempt's shuffle port with its start's host and
   * its end's, its NodeManager's port; an AM's NodeManager): one host may run several NodeManagers
   * (faultbed's own clusters do), told apart by their shuffle ports.
   */
  private static List<String> nodes(JobInfo info, Map<String, Integer> addresses) {
    Map<String, Set<String>> names = new TreeMap<>(); // node key -> every address it is named by
    Map<String, String> nodeIdOf = new HashMap<>();
    for (var task : info.getAllTasks().values()) {
      for (TaskAttemptInfo a : task.getAllTaskAttempts().values()) {
        String host = a.getTrackerName() != null && !a.getTrackerName().isEmpty() ? a.getTrackerName() : a.getHostname();
        if (host == null) {
          continue;
        }
        String key = host + ":" + a.getShufflePort();
        Set<String> set = names.computeIfAbsent(key, k -> new TreeSet<>());
        set.add(key);
        if (a.getHostname() != null) {
          set.add(a.getHostname() + ":" + a.getShufflePort());
          set.add(a.getHostname() + ":" + a.getPort());
          nodeIdOf.putIfAbsent(key, a.getHostname() + ":" + a.getPort());
        }
      }
    }
    for (AMInfo am : info.getAMInfos() == null ? List.<AMInfo>of() : info.getAMInfos()) {
      String address = am.getNodeManagerHost() + ":" + am.getNodeManagerPort();
      if (names.values().stream().noneMatch(s -> s.contains(address))) {
        names.computeIfAbsent(address, k -> new TreeSet<>()).add(address);
        nodeIdOf.put(address, address);
      }
    }
    List<String> ids = new ArrayList<>();
    for (Map.Entry<String, Set<String>> e : names.entrySet()) {
      int index = ids.size();
      ids.add(nodeIdOf.getOrDefault(e.getKey(), e.getKey()));
      e.getValue().forEach(address -> addresses.putIfAbsent(address, index));
    }
    return ids;
  }

  private static int port(String nodeId) {
    try {
      return Integer.parseInt(nodeId.substring(nodeId.lastIndexOf(':') + 1));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** What the maps read of their input, as Hadoop's input formats count it; 0 when not counted. */
  private static long inputBytes(JobInfo info) {
    for (Counters c : new Counters[] {info.getMapCounters(), info.getTotalCounters()}) {
      if (c != null && c.findCounter(FileInputFormatCounter.BYTES_READ).getValue() > 0) {
        return c.findCounter(FileInputFormatCounter.BYTES_READ).getValue();
      }
    }
    return 0;
  }

  /**
   * The settings in force as a record keeps them, from the job's configuration file beside the
   * history file ({@code <job>_conf.xml}, or the {@code .jhist} name with {@code _conf.xml}); none,
   * with a note, when it is not there.
   */
  private static Map<String, String> settings(java.nio.file.Path jhist, JobInfo info, List<String> notes) {
    java.nio.file.Path dir = jhist.toAbsolutePath().getParent();
    Optional<java.nio.file.Path> conf = java.util.stream.Stream.of(
            dir.resolve(info.getJobId() + "_conf.xml"),
            dir.resolve(jhist.getFileName().toString().replaceFirst("\\.jhist$", "_conf.xml")))
        .filter(Files::isRegularFile).findFirst();
    if (conf.isEmpty()) {
      notes.add("no configuration file beside the history file (" + info.getJobId() + "_conf.xml): the settings in"
          + " force are not known");
      return Map.of();
    }
    Configuration c = new Configuration(false);
    try {
      c.addResource(Files.newInputStream(conf.get()), conf.get().toString());
      c.size(); // reads it now, so a broken file is named here
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException(conf.get() + ": expected the job's configuration (Hadoop XML), got: "
          + e.getMessage(), e);
    }
    return RecordAssembly.settingsInForce(c, Set.of());
  }
}
