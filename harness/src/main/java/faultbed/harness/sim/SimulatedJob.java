package faultbed.harness.sim;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.security.token.JobTokenSecretManager;
import org.apache.hadoop.mapreduce.split.JobSplit.TaskSplitMetaInfo;
import org.apache.hadoop.mapreduce.v2.api.records.JobId;
import org.apache.hadoop.mapreduce.v2.app.AppContext;
import org.apache.hadoop.mapreduce.v2.app.TaskAttemptListener;
import org.apache.hadoop.mapreduce.v2.app.job.JobStateInternal;
import org.apache.hadoop.mapreduce.v2.app.job.event.JobEvent;
import org.apache.hadoop.mapreduce.v2.app.job.event.JobEventType;
import org.apache.hadoop.mapreduce.v2.app.job.impl.JobImpl;
import org.apache.hadoop.mapreduce.v2.app.metrics.MRAppMetrics;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.event.EventHandler;
import org.apache.hadoop.yarn.state.StateMachine;
import org.apache.hadoop.yarn.state.StateMachineFactory;
import org.apache.hadoop.yarn.util.Clock;

/**
 * Hadoop's JobImpl with one arc replaced: NEW --JOB_INIT--> takes its splits from the simulation
 * instead of reading job.splitmetainfo from a staging directory (the way Hadoop's own MRApp test
 * harness does it). Task creation and every later transition are Hadoop's.
 */
@SuppressWarnings("rawtypes")
final class SimulatedJob extends JobImpl {
  /** Hadoop's transition table plus the replaced arc; a later arc for the same event wins. */
  private static final StateMachineFactory<JobImpl, JobStateInternal, JobEventType, JobEvent> FACTORY =
      stateMachineFactory.addTransition(JobStateInternal.NEW,
          EnumSet.of(JobStateInternal.INITED, JobStateInternal.NEW), JobEventType.JOB_INIT,
          (job, event) -> ((SimulatedJob) job).init.transition(job, event)).installTopology();

  private final SplitsFromModel init;
  private final StateMachine<JobStateInternal, JobEventType, JobEvent> stateMachine;

  SimulatedJob(JobId jobId, ApplicationAttemptId appAttemptId, Configuration conf, EventHandler eventHandler,
      TaskAttemptListener listener, Clock clock, MRAppMetrics metrics, OutputCommitter committer,
      String user, AppContext context, TaskSplitMetaInfo[] splits, int reduces) {
    super(jobId, appAttemptId, conf, eventHandler, listener, new JobTokenSecretManager(), new Credentials(),
        clock, new HashMap<>(), metrics, committer, true, user, clock.getTime(), new ArrayList<>(), context,
        null, null);
    this.init = new SplitsFromModel(splits, reduces);
    this.stateMachine = FACTORY.make(this);
  }

  @Override
  protected StateMachine<JobStateInternal, JobEventType, JobEvent> getStateMachine() {
    return stateMachine;
  }

  /** Hadoop's InitTransition (job token, staging paths, task creation) with the splits given. */
  private static final class SplitsFromModel extends JobImpl.InitTransition {
    private final TaskSplitMetaInfo[] splits;
    private final int reduces;

    SplitsFromModel(TaskSplitMetaInfo[] splits, int reduces) {
      this.splits = splits;
      this.reduces = reduces;
    }

    @Override
    protected void setup(JobImpl job) throws IOException {
      super.setup(job);
      job.conf.setInt(MRJobConfig.NUM_REDUCES, reduces);
    }

    @Override
    protected TaskSplitMetaInfo[] createSplits(JobImpl job, JobId jobId) {
      return splits;
    }
  }
}
