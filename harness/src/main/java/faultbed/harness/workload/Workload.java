package faultbed.harness.workload;

import faultbed.results.RunRecord.OutputCheck;
import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;

/**
 * A real MapReduce job and the input it reads. Input is generated from a data seed once and reused
 * by every run with the same seed and parameters, so runs differ only by their faults.
 */
public interface Workload {
  /** "sort", "wordcount" or "synthetic". */
  String type();

  /** The parameters that define it, for the run record. */
  Map<String, String> parameters();

  int maps();

  int reduces();

  /**
   * Writes the input under {@code dataRoot} for this seed unless a complete copy is already there.
   *
   * @return bytes of input the job will read
   */
  long prepare(FileSystem fs, Path dataRoot, long dataSeed) throws IOException;

  /** How many copies of the job run at once; the first is measured (see {@link ConcurrentJobs}). */
  default int concurrentJobs() {
    return 1;
  }

  /** This workload run {@code jobs} times at once. */
  default Workload withConcurrentJobs(int jobs) {
    return jobs == 1 ? this : new ConcurrentJobs(this, jobs);
  }

  /** A configured, unsubmitted job that reads what {@link #prepare} wrote and writes to {@code output}. */
  Job createJob(Configuration conf, Path dataRoot, long dataSeed, Path output) throws IOException;

  /**
   * Whether the finished, successful {@code job} computed the right output from its input, so a
   * run whose output is wrong is a failed run, never a fast one.
   */
  OutputCheck checkOutput(FileSystem fs, Path dataRoot, long dataSeed, Path output, Job job)
      throws IOException, InterruptedException;
}
