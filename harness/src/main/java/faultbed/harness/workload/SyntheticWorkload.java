package faultbed.harness.workload;

import faultbed.results.RunRecord.OutputCheck;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Writable;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.output.NullOutputFormat;
import org.apache.hadoop.mapreduce.lib.partition.HashPartitioner;

/**
 * A job with no input data whose task durations are set by parameters, for scheduler and
 * speculation tests. Maps and reduces report progress in proportion to elapsed time, so the
 * framework sees a steady progress rate.
 *
 * @param maps number of map tasks
 * @param reduces number of reduce tasks
 * @param mapMillis duration of every map not listed in {@code mapMillisList}
 * @param reduceMillis duration of every reduce, counted from the end of its shuffle
 * @param mapMillisList durations of maps 0, 1, ...; maps beyond its end take {@code mapMillis}
 * @param recordsPerMap small records each map sends to the reduces
 * @param slowdowns map attempts that run slower than the rest, by a profile over their progress
 */
public record SyntheticWorkload(int maps, int reduces, long mapMillis, long reduceMillis,
    List<Long> mapMillisList, int recordsPerMap, List<Slowdown> slowdowns) implements Workload {
  public static final String TYPE = "synthetic";
  public static final String JOB_NAME = "faultbed-synthetic";

  public static final String MAPS_KEY = "faultbed.synthetic.maps";
  public static final String MAP_MS_KEY = "faultbed.synthetic.map.ms";
  public static final String MAP_MS_LIST_KEY = "faultbed.synthetic.map.ms.list";
  public static final String REDUCE_MS_KEY = "faultbed.synthetic.reduce.ms";
  public static final String RECORDS_KEY = "faultbed.synthetic.records";
  public static final String SLOWDOWNS_KEY = "faultbed.synthetic.slowdowns";

  /**
   * Fewest progress steps per task; longer tasks step at most every {@link #MAX_STEP_MILLIS}. The
   * framework reads a map's progress only when it takes a record, so a step is the finest progress
   * the AM's estimators can see.
   */
  static final int MIN_STEPS = 20;
  static final long MAX_STEP_MILLIS = 100;
  /** Distinct keys per reduce: each is one progress step of the reduce phase. */
  static final int KEYS_PER_REDUCE = MIN_STEPS;

  public SyntheticWorkload {
    Workloads.requireAtLeast("maps", 1, maps);
    Workloads.requireAtLeast("reduces", 0, reduces);
    Workloads.requireAtLeast("mapMillis", 0, mapMillis);
    Workloads.requireAtLeast("reduceMillis", 0, reduceMillis);
    Workloads.requireAtLeast("recordsPerMap", 0, recordsPerMap);
    if (mapMillisList == null) {
      mapMillisList = List.of();
    }
    for (int i = 0; i < mapMillisList.size(); i++) {
      if (mapMillisList.get(i) == null) {
        throw new IllegalArgumentException(
            "workload.mapMillisList[" + i + "]: expected a duration, got null");
      }
    }
    mapMillisList = List.copyOf(mapMillisList);
    if (mapMillisList.size() > maps) {
      throw new IllegalArgumentException("workload.mapMillisList: expected at most " + maps
          + " entries (one per map), got " + mapMillisList.size());
    }
    for (int i = 0; i < mapMillisList.size(); i++) {
      Workloads.requireAtLeast("mapMillisList[" + i + "]", 0, mapMillisList.get(i));
    }
    slowdowns = List.copyOf(slowdowns == null ? List.of() : slowdowns);
    for (int i = 0; i < slowdowns.size(); i++) {
      Slowdown s = slowdowns.get(i);
      if (s.map() >= maps) {
        throw new IllegalArgumentException("workload.slowdowns[" + i + "].map: expected a map index below " + maps
            + ", got " + s.map());
      }
      for (int j = 0; j < i; j++) {
        if (slowdowns.get(j).map() == s.map() && slowdowns.get(j).attempt() == s.attempt()) {
          throw new IllegalArgumentException("workload.slowdowns[" + i + "]: map " + s.map() + " attempt "
              + s.attempt() + " already has a profile (slowdowns[" + j + "])");
        }
      }
    }
  }

  public SyntheticWorkload withMaps(int newMaps) {
    return new SyntheticWorkload(newMaps, reduces, mapMillis, reduceMillis, mapMillisList,
        recordsPerMap, slowdowns);
  }

  public SyntheticWorkload withReduces(int newReduces) {
    return new SyntheticWorkload(maps, newReduces, mapMillis, reduceMillis, mapMillisList,
        recordsPerMap, slowdowns);
  }

  public SyntheticWorkload withMapMillis(long millis) {
    return new SyntheticWorkload(maps, reduces, millis, reduceMillis, mapMillisList,
        recordsPerMap, slowdowns);
  }

  public SyntheticWorkload withReduceMillis(long millis) {
    return new SyntheticWorkload(maps, reduces, mapMillis, millis, mapMillisList, recordsPerMap, slowdowns);
  }

  public SyntheticWorkload withMapMillisList(List<Long> millis) {
    return new SyntheticWorkload(maps, reduces, mapMillis, reduceMillis, millis, recordsPerMap, slowdowns);
  }

  public SyntheticWorkload withRecordsPerMap(int records) {
    return new SyntheticWorkload(maps, reduces, mapMillis, reduceMillis, mapMillisList, records, slowdowns);
  }

  public SyntheticWorkload withSlowdowns(List<Slowdown> profiles) {
    return new SyntheticWorkload(maps, reduces, mapMillis, reduceMillis, mapMillisList, recordsPerMap, profiles);
  }

  /** Duration of map {@code index}. */
  public long mapMillis(int index) {
    return index < mapMillisList.size() ? mapMillisList.get(index) : mapMillis;
  }

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public Map<String, String> parameters() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("maps", Integer.toString(maps));
    p.put("reduces", Integer.toString(reduces));
    p.put("mapMillis", Long.toString(mapMillis));
    p.put("reduceMillis", Long.toString(reduceMillis));
    if (!mapMillisList.isEmpty()) {
      p.put("mapMillisList", joinMillis(mapMillisList));
    }
    p.put("recordsPerMap", Integer.toString(recordsPerMap));
    if (!slowdowns.isEmpty()) {
      p.put("slowdowns", Slowdown.encodeAll(slowdowns));
    }
    return Collections.unmodifiableMap(p);
  }

  /** Nothing to write: the input format makes the splits from the configuration. */
  @Override
  public long prepare(FileSystem fs, Path dataRoot, long dataSeed) {
    return 0;
  }

  /** {@code dataRoot}, {@code dataSeed} and {@code output} are unused: no input, no output. */
  @Override
  public Job createJob(Configuration conf, Path dataRoot, long dataSeed, Path output)
      throws IOException {
    Job job = Job.getInstance(conf, JOB_NAME);
    Configuration jc = job.getConfiguration();
    jc.setInt(MAPS_KEY, maps);
    jc.setLong(MAP_MS_KEY, mapMillis);
    if (mapMillisList.isEmpty()) {
      jc.unset(MAP_MS_LIST_KEY);
    } else {
      jc.set(MAP_MS_LIST_KEY, joinMillis(mapMillisList));
    }
    jc.setLong(REDUCE_MS_KEY, reduceMillis);
    jc.setInt(RECORDS_KEY, recordsPerMap);
    if (slowdowns.isEmpty()) {
      jc.unset(SLOWDOWNS_KEY);
    } else {
      jc.set(SLOWDOWNS_KEY, Slowdown.encodeAll(slowdowns));
    }
    job.setInputFormatClass(SyntheticInputFormat.class);
    job.setMapperClass(SyntheticMapper.class);
    job.setReducerClass(SyntheticReducer.class);
    job.setPartitionerClass(HashPartitioner.class);
    job.setMapOutputKeyClass(IntWritable.class);
    job.setMapOutputValueClass(IntWritable.class);
    job.setOutputKeyClass(IntWritable.class);
    job.setOutputValueClass(LongWritable.class);
    job.setOutputFormatClass(NullOutputFormat.class);
    job.setNumReduceTasks(reduces);
    return job;
  }

  /** It writes no output: every record each map sent must have reached a reduce, by the job's counters. */
  @Override
  public OutputCheck checkOutput(FileSystem fs, Path dataRoot, long dataSeed, Path output, Job job)
      throws IOException, InterruptedException {
    String method = "synthetic: map output and reduce input records against maps x recordsPerMap (job counters)";
    long expected = (long) maps * recordsPerMap;
    var counters = job.getCounters();
    if (counters == null) {
      return new OutputCheck(method, false, "the job's counters could not be read");
    }
    long sent = counters.findCounter(TaskCounter.MAP_OUTPUT_RECORDS).getValue();
    long received = reduces == 0 ? sent : counters.findCounter(TaskCounter.REDUCE_INPUT_RECORDS).getValue();
    boolean right = sent == expected && received == expected;
    return new OutputCheck(method, right, right ? expected + " records sent and received"
        : "maps sent " + sent + " and reduces received " + received + " records, expected " + expected);
  }

  private static String joinMillis(List<Long> millis) {
    return millis.stream().map(String::valueOf).collect(Collectors.joining(","));
  }

  /** Duration of map {@code index} as the task reads it from the job configuration. */
  static long configuredMapMillis(Configuration conf, int index) {
    String[] list = conf.getTrimmedStrings(MAP_MS_LIST_KEY);
    if (index < list.length && !list[index].isEmpty()) {
      return Long.parseLong(list[index]);
    }
    return conf.getLong(MAP_MS_KEY, 0);
  }

  static int steps(long millis) {
    return (int) Math.max(MIN_STEPS, Math.min(10_000, millis / MAX_STEP_MILLIS));
  }

  /** Number of distinct keys, over all maps, that the partitioner sends to {@code partition}. */
  static int expectedKeys(int maps, int reduces, int recordsPerMap, int partition) {
    int keySpace = reduces * KEYS_PER_REDUCE;
    boolean[] seen = new boolean[keySpace];
    int covered = 0;
    int perMap = Math.min(recordsPerMap, keySpace);
    for (int m = 0; m < maps && covered < keySpace; m++) {
      for (int j = 0; j < perMap; j++) {
        int k = (m + j) % keySpace;
        if (!seen[k]) {
          seen[k] = true;
          covered++;
        }
      }
    }
    int expected = 0;
    for (int k = partition; k < keySpace; k += reduces) {
      if (seen[k]) {
        expected++;
      }
    }
    return expected;
  }

  /** {@code nanos * part / whole} without overflow for any duration a task could take. */
  static long fraction(long nanos, int part, int whole) {
    return (long) (nanos * ((double) part / whole));
  }

  /** Sleeps until {@code deadline} ({@link System#nanoTime}), telling the framework it is alive. */
  static void sleepUntil(long deadline, TaskAttemptContext context) throws InterruptedException {
    long remaining;
    while ((remaining = deadline - System.nanoTime()) > 0) {
      TimeUnit.NANOSECONDS.sleep(
          Math.min(remaining, TimeUnit.MILLISECONDS.toNanos(MAX_STEP_MILLIS)));
      context.progress();
    }
  }

  /** One split per map, carrying only the map's index. */
  public static class IndexSplit extends InputSplit implements Writable {
    private int index;

    public IndexSplit() {}

    public IndexSplit(int index) {
      this.index = index;
    }

    public int index() {
      return index;
    }

    @Override
    public long getLength() {
      return 1;
    }

    @Override
    public String[] getLocations() {
      return new String[0];
    }

    @Override
    public void write(DataOutput out) throws IOException {
      out.writeInt(index);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
      index = in.readInt();
    }

    @Override
    public String toString() {
      return "synthetic split " + index;
    }
  }

  /** Makes {@value #MAPS_KEY} splits; no files are read. */
  public static class SyntheticInputFormat extends InputFormat<IntWritable, IntWritable> {
    @Override
    public List<InputSplit> getSplits(JobContext context) {
      int maps = context.getConfiguration().getInt(MAPS_KEY, 1);
      List<InputSplit> splits = new ArrayList<>(maps);
      for (int i = 0; i < maps; i++) {
        splits.add(new IndexSplit(i));
      }
      return splits;
    }

    @Override
    public RecordReader<IntWritable, IntWritable> createRecordReader(InputSplit split,
        TaskAttemptContext context) {
      return new TimedRecordReader();
    }
  }

  /**
   * Spreads the map's duration over its records: record {@code s} of {@code n} (key the map index,
   * value {@code s}) is returned once its step has passed, each step {@code 1 / n} of the duration
   * (times the attempt's slow-down factor at progress {@code s / n}, if {@link #SLOWDOWNS_KEY} gives
   * it one). The framework samples progress after each record, so the records are what make
   * progress advance, at the rate the profile sets.
   */
  public static class TimedRecordReader extends RecordReader<IntWritable, IntWritable> {
    private final IntWritable key = new IntWritable();
    private final IntWritable value = new IntWritable();
    private TaskAttemptContext context;
    private long stepNanos;
    private Slowdown slowdown;
    private int steps;
    private int step;
    /** When the current step began and when it ends ({@link System#nanoTime}). */
    private long stepStart;
    private long stepEnd;

    @Override
    public void initialize(InputSplit split, TaskAttemptContext ctx) {
      context = ctx;
      int index = ((IndexSplit) split).index();
      Configuration conf = ctx.getConfiguration();
      long millis = configuredMapMillis(conf, index);
      steps = steps(millis);
      stepNanos = TimeUnit.MILLISECONDS.toNanos(millis) / steps;
      slowdown = Slowdown.of(Slowdown.decodeAll(conf.get(SLOWDOWNS_KEY)), index,
          ctx.getTaskAttemptID() == null ? 0 : ctx.getTaskAttemptID().getId());
      key.set(index);
      stepStart = System.nanoTime();
      stepEnd = stepStart + stepLength(0);
    }

    /** Step {@code s}'s length: its share of the duration, slowed by the profile where it applies. */
    private long stepLength(int s) {
      double factor = slowdown == null ? 1 : slowdown.factorAt((double) s / steps);
      return (long) Math.min(Long.MAX_VALUE / 4, stepNanos * factor);
    }

    @Override
    public boolean nextKeyValue() throws InterruptedException {
      if (step >= steps) {
        return false;
      }
      sleepUntil(stepEnd, context);
      value.set(step);
      step++;
      stepStart = stepEnd;
      stepEnd = stepStart + stepLength(step);
      return true;
    }

    @Override
    public IntWritable getCurrentKey() {
      return key;
    }

    @Override
    public IntWritable getCurrentValue() {
      return value;
    }

    @Override
    public float getProgress() {
      if (step >= steps) {
        return 1f;
      }
      long length = stepEnd - stepStart;
      double within = length <= 0 ? 0 : Math.min(1.0, (System.nanoTime() - stepStart) / (double) length);
      return (float) ((step + within) / steps);
    }

    @Override
    public void close() {}
  }

  /**
   * Reports each step of the reader's timing, then sends {@value #RECORDS_KEY} records with keys
   * cycling through {@code reduces * 20} values, so every reduce gets the same keys on every run.
   */
  public static class SyntheticMapper
      extends Mapper<IntWritable, IntWritable, IntWritable, IntWritable> {
    private int index;
    private long millis;
    private int steps;

    @Override
    protected void setup(Context context) {
      index = ((IndexSplit) context.getInputSplit()).index();
      millis = configuredMapMillis(context.getConfiguration(), index);
      steps = steps(millis);
    }

    @Override
    protected void map(IntWritable mapIndex, IntWritable step, Context context) {
      context.setStatus("synthetic map " + index + ": step " + (step.get() + 1) + " of " + steps
          + " (" + millis + " ms)");
      context.progress();
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      Configuration conf = context.getConfiguration();
      int records = conf.getInt(RECORDS_KEY, 0);
      int keySpace = Math.max(1, context.getNumReduceTasks()) * KEYS_PER_REDUCE;
      IntWritable k = new IntWritable();
      IntWritable v = new IntWritable(index);
      for (int j = 0; j < records; j++) {
        k.set((index + j) % keySpace);
        context.write(k, v);
      }
    }
  }

  /**
   * Takes {@value #REDUCE_MS_KEY} from the end of the shuffle, paced by its keys: after its
   * {@code i}-th of {@code n} expected keys it waits until {@code i / n} of the time has passed,
   * so reduce progress, which follows the keys consumed, tracks elapsed time. Writes each key's
   * record count.
   */
  public static class SyntheticReducer
      extends Reducer<IntWritable, IntWritable, IntWritable, LongWritable> {
    private final LongWritable count = new LongWritable();
    private long start;
    private long durationNanos;
    private long millis;
    private int expected;
    private int seen;

    @Override
    protected void setup(Context context) {
      Configuration conf = context.getConfiguration();
      millis = conf.getLong(REDUCE_MS_KEY, 0);
      durationNanos = TimeUnit.MILLISECONDS.toNanos(millis);
      expected = expectedKeys(conf.getInt(MAPS_KEY, 1), context.getNumReduceTasks(),
          conf.getInt(RECORDS_KEY, 0), context.getTaskAttemptID().getTaskID().getId());
      start = System.nanoTime();
    }

    @Override
    protected void reduce(IntWritable key, Iterable<IntWritable> values, Context context)
        throws IOException, InterruptedException {
      long n = 0;
      for (IntWritable ignored : values) {
        n++;
      }
      count.set(n);
      context.write(key, count);
      seen++;
      int done = Math.min(seen, expected);
      context.setStatus("synthetic reduce: key " + seen + " of " + expected + " (" + millis
          + " ms)");
      sleepUntil(start + fraction(durationNanos, done, Math.max(1, expected)), context);
    }

    @Override
    protected void cleanup(Context context) throws InterruptedException {
      sleepUntil(start + durationNanos, context);
    }
  }
}
