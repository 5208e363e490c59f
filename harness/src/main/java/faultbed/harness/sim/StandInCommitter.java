package faultbed.harness.sim;

import org.apache.hadoop.mapreduce.v2.api.records.JobId;
import org.apache.hadoop.mapreduce.v2.app.commit.CommitterEvent;
import org.apache.hadoop.mapreduce.v2.app.commit.CommitterJobAbortEvent;
import org.apache.hadoop.mapreduce.v2.app.commit.CommitterTaskAbortEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.JobAbortCompletedEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.JobCommitCompletedEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.JobSetupCompletedEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.TaskAttemptEventType;
import org.apache.hadoop.yarn.event.Event;
import org.apache.hadoop.yarn.event.EventHandler;

/**
 * Answers the AM's committer events as Hadoop's CommitterEventHandler does, without its thread pool
 * and without output: job setup and commit complete after their latencies, aborts at once.
 */
final class StandInCommitter implements EventHandler<CommitterEvent> {
  private final EventLoop loop;
  private final EventHandler<Event> events;
  private final JobId jobId;
  private final Latencies latencies;

  StandInCommitter(EventLoop loop, EventHandler<Event> events, JobId jobId, Latencies latencies) {
    this.loop = loop;
    this.events = events;
    this.jobId = jobId;
    this.latencies = latencies;
  }

  @Override
  public void handle(CommitterEvent event) {
    switch (event.getType()) {
      case JOB_SETUP -> loop.after(latencies.jobSetup(), () -> events.handle(new JobSetupCompletedEvent(jobId)));
      case JOB_COMMIT -> loop.after(latencies.jobCommit(), () -> events.handle(new JobCommitCompletedEvent(jobId)));
      case JOB_ABORT -> {
        CommitterJobAbortEvent abort = (CommitterJobAbortEvent) event;
        events.handle(new JobAbortCompletedEvent(abort.getJobID(), abort.getFinalState()));
      }
      case TASK_ABORT -> events.handle(new TaskAttemptEvent(((CommitterTaskAbortEvent) event).getAttemptID(),
          TaskAttemptEventType.TA_CLEANUP_DONE));
      default -> { }
    }
  }
}
