package faultbed.harness.workload;

import faultbed.results.RunRecord.OutputCheck;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;

/**
 * {@code jobs} copies of a workload submitted together, as in seed 003's two concurrent jobs
 * (Figure 5): the first is the measured job, the others contend with it for the cluster. Faults,
 * job events and the record's attempts belong to the first; the others' outcomes are recorded too.
 */
public record ConcurrentJobs(Workload job, int jobs) implements Workload {
  public ConcurrentJobs {
    if (jobs < 2) {
      throw new IllegalArgumentException("concurrentJobs: expected 2 or more, got " + jobs);
    }
    if (job instanceof ConcurrentJobs) {
      throw new IllegalArgumentException("concurrentJobs: already concurrent");
    }
  }

  @Override
  public String type() {
    return job.type();
  }

  @Override
  public Map<String, String> parameters() {
    Map<String, String> p = new LinkedHashMap<>(job.parameters());
    p.put("concurrentJobs", Integer.toString(jobs));
    return p;
  }

  @Override
  public int maps() {
    return job.maps();
  }

  @Override
  public int reduces() {
    return job.reduces();
  }

  @Override
  public int concurrentJobs() {
    return jobs;
  }

  @Override
  public long prepare(FileSystem fs, Path dataRoot, long dataSeed) throws IOException {
    return job.prepare(fs, dataRoot, dataSeed); // every copy reads the same input
  }

  @Override
  public Job createJob(Configuration conf, Path dataRoot, long dataSeed, Path output) throws IOException {
    return job.createJob(conf, dataRoot, dataSeed, output);
  }

  @Override
  public OutputCheck checkOutput(FileSystem fs, Path dataRoot, long dataSeed, Path output, Job measured)
      throws IOException, InterruptedException {
    return job.checkOutput(fs, dataRoot, dataSeed, output, measured);
  }
}
