package faultbed.harness.workload;

import faultbed.harness.daemons.StrictCpuExecutor;
import faultbed.results.RunRecord.OutputCheck;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.mapreduce.Counter;
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

/**
 * A CPU-bound job whose maps can grow and shrink their parallelism while they run: each map's work
 * is {@code units} sub-splits (a chain of {@code unitWork} SHA-256 rounds each), taken one at a time
 * from the split by a pool of threads whose size follows the share the node gives the task
 * ({@link StrictCpuExecutor#THREADS_FILE}, read every {@value #POLL_MS} ms; one thread without it).
 * A thread beyond the share ends after its unit, so a task gives resources back within a unit's
 * time. Hadoop's {@code MultithreadedMapper} fixes its threads at start; this is the task half of
 * resource stealing. The maps send each unit's digest to the reduces, which count them.
 *
 * @param maps     map tasks
 * @param reduces  reduce tasks
 * @param units    sub-splits per map
 * @param unitWork SHA-256 rounds per sub-split
 */
public record ElasticWorkload(int maps, int reduces, int units, int unitWork) implements Workload {
  public static final String TYPE = "elastic";
  public static final String JOB_NAME = "faultbed-elastic";
  static final String MAPS_KEY = "faultbed.elastic.maps";
  static final String UNITS_KEY = "faultbed.elastic.units";
  static final String WORK_KEY = "faultbed.elastic.unit-work";
  static final long POLL_MS = 100;

  public ElasticWorkload {
    Workloads.requireAtLeast("maps", 1, maps);
    Workloads.requireAtLeast("reduces", 0, reduces);
    Workloads.requireAtLeast("units", 1, units);
    Workloads.requireAtLeast("unitWork", 1, unitWork);
  }

  public ElasticWorkload withMaps(int n) {
    return new ElasticWorkload(n, reduces, units, unitWork);
  }

  public ElasticWorkload withReduces(int n) {
    return new ElasticWorkload(maps, n, units, unitWork);
  }

  public ElasticWorkload withUnits(int n) {
    return new ElasticWorkload(maps, reduces, n, unitWork);
  }

  public ElasticWorkload withUnitWork(int n) {
    return new ElasticWorkload(maps, reduces, units, n);
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
    p.put("units", Integer.toString(units));
    p.put("unitWork", Integer.toString(unitWork));
    return p;
  }

  /** Nothing to write: a map's units are numbered, and its work is computed from the numbers. */
  @Override
  public long prepare(FileSystem fs, Path dataRoot, long dataSeed) {
    return 0;
  }

  @Override
  public Job createJob(Configuration conf, Path dataRoot, long dataSeed, Path output) throws IOException {
    Job job = Job.getInstance(conf, JOB_NAME);
    Configuration jc = job.getConfiguration();
    jc.setInt(MAPS_KEY, maps);
    jc.setInt(UNITS_KEY, units);
    jc.setInt(WORK_KEY, unitWork);
    job.setInputFormatClass(UnitInputFormat.class);
    job.setMapperClass(ElasticMapper.class);
    job.setReducerClass(CountingReducer.class);
    job.setMapOutputKeyClass(IntWritable.class);
    job.setMapOutputValueClass(LongWritable.class);
    job.setOutputKeyClass(IntWritable.class);
    job.setOutputValueClass(LongWritable.class);
    job.setOutputFormatClass(NullOutputFormat.class);
    job.setNumReduceTasks(reduces);
    return job;
  }

  /** Every unit's digest reached a reduce, and the digests are those of a unit's chain, by their sum. */
  @Override
  public OutputCheck checkOutput(FileSystem fs, Path dataRoot, long dataSeed, Path output, Job job)
      throws IOException, InterruptedException {
    String method = "elastic: map output and reduce input records against maps x units, and the sum of the"
        + " digests against one computed here (job counters)";
    var counters = job.getCounters();
    if (counters == null) {
      return new OutputCheck(method, false, "the job's counters could not be read");
    }
    long expected = (long) maps * units;
    long sent = counters.findCounter(TaskCounter.MAP_OUTPUT_RECORDS).getValue();
    long received = reduces == 0 ? sent : counters.findCounter(TaskCounter.REDUCE_INPUT_RECORDS).getValue();
    long sum = counters.findCounter(Digests.SUM).getValue();
    long want = 0;
    for (int m = 0; m < maps; m++) {
      for (int u = 0; u < units; u++) {
        want += digest(m * units + u, unitWork) & 0xFFFF;
      }
    }
    boolean right = sent == expected && received == expected && (reduces == 0 || sum == want);
    long lent = counters.findCounter(Digests.UNITS_ON_LENT_THREADS).getValue();
    return new OutputCheck(method, right, right ? expected + " units, digests as computed; " + lent
        + " of them done by threads beyond their map's first"
        : "maps sent " + sent + ", reduces received " + received + " (expected " + expected + "), digest sum "
            + sum + " (expected " + want + ")");
  }

  /** The unit's work: {@code rounds} SHA-256 rounds from its number; the first 8 bytes as a long. */
  static long digest(int unit, int rounds) {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    byte[] d = Integer.toString(unit).getBytes(StandardCharsets.US_ASCII);
    for (int i = 0; i < rounds; i++) {
      d = sha.digest(d);
    }
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (d[i] & 0xFF);
    }
    return v;
  }

  /** The digests' sum, and the units done by threads beyond a map's first (its lent slots at work). */
  enum Digests { SUM, UNITS_ON_LENT_THREADS }

  /** One split per map; the records are its unit numbers. */
  public static class UnitInputFormat extends InputFormat<IntWritable, IntWritable> {
    @Override
    public List<InputSplit> getSplits(JobContext context) {
      int maps = context.getConfiguration().getInt(MAPS_KEY, 1);
      List<InputSplit> splits = new ArrayList<>(maps);
      for (int i = 0; i < maps; i++) {
        splits.add(new SyntheticWorkload.IndexSplit(i));
      }
      return splits;
    }

    @Override
    public RecordReader<IntWritable, IntWritable> createRecordReader(InputSplit split, TaskAttemptContext context) {
      return new RecordReader<>() {
        int map;
        int units;
        int next = -1;

        @Override
        public void initialize(InputSplit s, TaskAttemptContext c) {
          map = ((SyntheticWorkload.IndexSplit) s).index();
          units = c.getConfiguration().getInt(UNITS_KEY, 1);
        }

        @Override
        public boolean nextKeyValue() {
          return ++next < units;
        }

        @Override
        public IntWritable getCurrentKey() {
          return new IntWritable(map * units + next);
        }

        @Override
        public IntWritable getCurrentValue() {
          return new IntWritable(next);
        }

        /** Units handed out: a map's progress is what its threads have taken. */
        @Override
        public float getProgress() {
          return units == 0 ? 1 : Math.min(1f, Math.max(0, next) / (float) units);
        }

        @Override
        public void close() {}
      };
    }
  }

  /**
   * Takes units from the split with as many threads as its share allows. Every call on the context
   * is made under its lock, as {@code MultithreadedMapper} does, since the context is not thread-safe.
   */
  public static class ElasticMapper extends Mapper<IntWritable, IntWritable, IntWritable, LongWritable> {
    @Override
    public void run(Context context) throws IOException, InterruptedException {
      setup(context);
      int units = context.getConfiguration().getInt(UNITS_KEY, 1);
      int rounds = context.getConfiguration().getInt(WORK_KEY, 1);
      java.nio.file.Path here = java.nio.file.Path.of("").toAbsolutePath();
      long start = System.currentTimeMillis();
      AtomicInteger done = new AtomicInteger();
      AtomicInteger live = new AtomicInteger();
      AtomicInteger wanted = new AtomicInteger(1);
      boolean[] exhausted = {false};
      Throwable[] failed = {null};
      List<Thread> threads = new ArrayList<>();
      java.util.function.IntFunction<Runnable> workerNumbered = ordinal -> () -> {
        boolean left = false;
        try {
          while (true) {
            int key;
            synchronized (context) {
              if (exhausted[0] || failed[0] != null) {
                return;
              }
              if (!context.nextKeyValue()) {
                exhausted[0] = true;
                return;
              }
              key = context.getCurrentKey().get();
            }
            long d = digest(key, rounds);
            synchronized (context) {
              context.write(new IntWritable(key), new LongWritable(d));
              if (ordinal > 0) {
                context.getCounter(Digests.UNITS_ON_LENT_THREADS).increment(1);
              }
            }
            done.incrementAndGet();
            // a thread beyond the share ends after its unit: the resources go back
            int n = live.get();
            if (n > wanted.get() && live.compareAndSet(n, n - 1)) {
              left = true;
              return;
            }
          }
        } catch (Throwable t) {
          synchronized (context) {
            failed[0] = t;
          }
        } finally {
          if (!left) {
            live.decrementAndGet();
          }
          synchronized (context) {
            context.notifyAll();
          }
        }
      };
      try {
        while (true) {
          wanted.set(Math.max(1, readShare(here)));
          synchronized (context) {
            if (failed[0] != null) {
              break;
            }
            boolean running = threads.stream().anyMatch(Thread::isAlive);
            if (exhausted[0] && !running) {
              break;
            }
            while (!exhausted[0] && live.get() < wanted.get()) {
              int ordinal = live.getAndIncrement();
              Thread t = new Thread(workerNumbered.apply(ordinal), "faultbed-unit-" + ordinal);
              t.setDaemon(true);
              threads.add(t);
              t.start();
            }
            context.progress();
          }
          threads.removeIf(t -> !t.isAlive());
          writeProgress(here, start, done.get() / (double) units, units - done.get());
          synchronized (context) {
            context.wait(POLL_MS);
          }
        }
      } finally {
        for (Thread t : threads) {
          t.join();
        }
      }
      if (failed[0] instanceof IOException e) {
        throw e;
      } else if (failed[0] instanceof InterruptedException e) {
        throw e;
      } else if (failed[0] != null) {
        throw new IOException("a unit failed", failed[0]);
      }
      writeProgress(here, start, 1, 0);
      cleanup(context);
    }

    /** The slots the node gives this task now; 1 when it says nothing. */
    static int readShare(java.nio.file.Path here) {
      try {
        return Integer.parseInt(Files.readString(here.resolve(StrictCpuExecutor.THREADS_FILE)).trim());
      } catch (IOException | NumberFormatException none) {
        return 1;
      }
    }

    static void writeProgress(java.nio.file.Path here, long start, double progress, int canUse) {
      try {
        java.nio.file.Path tmp = here.resolve(StrictCpuExecutor.PROGRESS_FILE + ".tmp");
        Files.writeString(tmp, start + " " + progress + " " + Math.max(1, canUse) + "\n");
        Files.move(tmp, here.resolve(StrictCpuExecutor.PROGRESS_FILE), StandardCopyOption.REPLACE_EXISTING,
            StandardCopyOption.ATOMIC_MOVE);
      } catch (IOException e) {
        // the node then holds the task to its own slots
      }
    }
  }

  /** Counts each key's digests and adds their low 16 bits to the job's digest sum. */
  public static class CountingReducer extends Reducer<IntWritable, LongWritable, IntWritable, LongWritable> {
    @Override
    protected void reduce(IntWritable key, Iterable<LongWritable> values, Context context)
        throws IOException, InterruptedException {
      long n = 0;
      Counter sum = context.getCounter(Digests.SUM);
      for (LongWritable v : values) {
        n++;
        sum.increment(v.get() & 0xFFFF);
      }
      context.write(key, new LongWritable(n));
    }
  }
}
