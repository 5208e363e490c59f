package faultbed.harness.sim;

import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/** JobImpl needs a committer but never calls it; the stand-in committer answers its events instead. */
final class NoOutputCommitter extends OutputCommitter {
  @Override
  public void setupJob(JobContext context) {
  }

  @Override
  public void setupTask(TaskAttemptContext context) {
  }

  @Override
  public boolean needsTaskCommit(TaskAttemptContext context) {
    return false;
  }

  @Override
  public void commitTask(TaskAttemptContext context) {
  }

  @Override
  public void abortTask(TaskAttemptContext context) {
  }
}
