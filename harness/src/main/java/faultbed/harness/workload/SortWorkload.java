package faultbed.harness.workload;

import faultbed.results.RunRecord.OutputCheck;
import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.SequenceFile.CompressionType;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.SequenceFileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;

/**
 * The Sort benchmark: identity map and reduce over SequenceFiles of random records with 10-byte
 * keys and 90-byte values, so all the work is in the shuffle and sort.
 *
 * @param bytes approximate total size of the input files, SequenceFile framing included
 * @param maps number of input files, one map each
 * @param reduces number of reduce tasks
 */
public record SortWorkload(long bytes, int maps, int reduces) implements Workload {
  public static final String TYPE = "sort";
  public static final String JOB_NAME = "faultbed-sort";
  public static final int KEY_BYTES = 10;
  public static final int VALUE_BYTES = 90;

  public SortWorkload {
    Workloads.requireAtLeast("bytes", 1, bytes);
    Workloads.requireAtLeast("maps", 1, maps);
    Workloads.requireAtLeast("reduces", 0, reduces);
  }

  public SortWorkload withBytes(long newBytes) {
    return new SortWorkload(newBytes, maps, reduces);
  }

  public SortWorkload withMaps(int newMaps) {
    return new SortWorkload(bytes, newMaps, reduces);
  }

  public SortWorkload withReduces(int newReduces) {
    return new SortWorkload(bytes, maps, newReduces);
  }

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public Map<String, String> parameters() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("bytes", Long.toString(bytes));
    p.put("maps", Integer.toString(maps));
    p.put("reduces", Integer.toString(reduces));
    return Collections.unmodifiableMap(p);
  }

  /** Where {@link #prepare} puts the part files for this seed. */
  public Path inputDir(Path dataRoot, long dataSeed) {
    return GeneratedInput.inputDir(GeneratedInput.dataDir(dataRoot, TYPE, bytes, maps, dataSeed));
  }

  @Override
  public long prepare(FileSystem fs, Path dataRoot, long dataSeed) throws IOException {
    Path dir = GeneratedInput.dataDir(dataRoot, TYPE, bytes, maps, dataSeed);
    Configuration conf = fs.getConf();
    return GeneratedInput.prepare(fs, dir, bytes, maps, new SplittableRandom(dataSeed),
        (out, target, random) -> {
          byte[] key = new byte[KEY_BYTES];
          byte[] value = new byte[VALUE_BYTES];
          BytesWritable k = new BytesWritable();
          BytesWritable v = new BytesWritable();
          // The writer does not close a stream it was given; GeneratedInput closes it.
          try (SequenceFile.Writer writer = SequenceFile.createWriter(conf,
              SequenceFile.Writer.stream(out),
              SequenceFile.Writer.keyClass(BytesWritable.class),
              SequenceFile.Writer.valueClass(BytesWritable.class),
              SequenceFile.Writer.compression(CompressionType.NONE))) {
            // Stop at the first record to reach the target: each file overshoots by < 1 record.
            while (writer.getLength() < target) {
              random.nextBytes(key);
              random.nextBytes(value);
              k.set(key, 0, KEY_BYTES);
              v.set(value, 0, VALUE_BYTES);
              writer.append(k, v);
            }
          }
        });
  }

  @Override
  public Job createJob(Configuration conf, Path dataRoot, long dataSeed, Path output)
      throws IOException {
    Job job = Job.getInstance(conf, JOB_NAME);
    job.setInputFormatClass(SequenceFileInputFormat.class);
    FileInputFormat.setInputPaths(job, inputDir(dataRoot, dataSeed));
    // One map per input file, whatever the block size.
    FileInputFormat.setMinInputSplitSize(job, Long.MAX_VALUE);
    job.setMapperClass(Mapper.class);
    job.setReducerClass(Reducer.class);
    job.setMapOutputKeyClass(BytesWritable.class);
    job.setMapOutputValueClass(BytesWritable.class);
    job.setOutputKeyClass(BytesWritable.class);
    job.setOutputValueClass(BytesWritable.class);
    job.setOutputFormatClass(SequenceFileOutputFormat.class);
    FileOutputFormat.setOutputPath(job, output);
    FileOutputFormat.setCompressOutput(job, false);
    job.setNumReduceTasks(reduces);
    return job;
  }

  @Override
  public OutputCheck checkOutput(FileSystem fs, Path dataRoot, long dataSeed, Path output, Job job)
      throws IOException {
    return OutputChecks.sort(fs, inputDir(dataRoot, dataSeed), output, reduces);
  }
}
