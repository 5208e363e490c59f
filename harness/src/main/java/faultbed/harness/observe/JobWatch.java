package faultbed.harness.observe;

import faultbed.harness.HarnessException;
import faultbed.harness.timeline.JobEvent;
import faultbed.results.RunRecord;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.TIPStatus;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;

/**
 * Watching a submitted job: what it has done so far (for job-event triggers and role targets),
 * whether the RM says it has ended, and a deadline, so no wait on a hung job is unbounded.
 */
final class JobWatch {
  /** How long a killed job may take to end before the run is given up. */
  static final Duration KILL_GRACE = Duration.ofMinutes(2);

  private JobWatch() {}

  /** What the observer has seen of the job so far; read by the injector threads. */
  static final class Observed {
    volatile int mapsCompleted;
    volatile boolean reducerRunning;
    /** The most maps seen running at once. */
    volatile int mapsRunning;
    /** Finished map outputs each node holds, by node index. */
    final Map<Integer, Integer> outputsHeld = new ConcurrentHashMap<>();
    private int nextEvent;

    /** Reads the job's new completion events (and, if asked, whether a reducer runs, how many maps run). */
    void observe(Job job, NodeLocator locator, boolean needReducers, boolean needMaps)
        throws IOException, InterruptedException {
      TaskCompletionEvent[] events;
      do {
        events = job.getTaskCompletionEvents(nextEvent, 100);
        for (TaskCompletionEvent e : events) {
          nextEvent++;
          if (e.isMapTask() && e.getStatus() == TaskCompletionEvent.Status.SUCCEEDED) {
            mapsCompleted++;
            Integer node = locator.findUrl(e.getTaskTrackerHttp());
            if (node != null) {
              outputsHeld.merge(node, 1, Integer::sum);
            }
          }
        }
      } while (events.length == 100);
      if (needMaps) {
        int running = 0;
        for (TaskReport r : job.getTaskReports(TaskType.MAP)) {
          if (r.getCurrentStatus() == TIPStatus.RUNNING) {
            running++;
          }
        }
        mapsRunning = Math.max(mapsRunning, running);
      }
      if (needReducers && !reducerRunning) {
        for (TaskReport r : job.getTaskReports(TaskType.REDUCE)) {
          if (r.getCurrentStatus() == TIPStatus.RUNNING) {
            reducerRunning = true;
          }
        }
      }
    }

    boolean happened(JobEvent event) {
      if (event instanceof JobEvent.MapsCompleted m) {
        return mapsCompleted >= m.count();
      }
      if (event instanceof JobEvent.MapsRunning m) {
        return mapsRunning >= m.count();
      }
      return event instanceof JobEvent.ReducerInShuffle && reducerRunning;
    }
  }

  static String appIdOf(Job job) {
    return job.getJobID().toString().replace("job_", "application_");
  }

  /** FINISHING counts: the AM has unregistered and only lingers 5 s for clients before it exits. */
  static boolean finished(String applicationState) {
    return applicationState.equals("FINISHING") || applicationState.equals("FINISHED")
        || applicationState.equals("FAILED") || applicationState.equals("KILLED");
  }

  /** The job's outcome as its client sees it now; the history file corrects it later. */
  static RunRecord.JobOutcome outcome(Job job, Configuration conf, long submitEpoch, long observedEnd,
      List<String> notes) throws InterruptedException {
    try {
      JobStatus status = job.getStatus();
      String diagnostics = status.getFailureInfo();
      return new RunRecord.JobOutcome(job.getJobID().toString(), status.getState().name(),
          status.getState() == JobStatus.State.SUCCEEDED, submitEpoch, observedEnd,
          conf.getInt("mapreduce.job.maps", 0), job.getNumReduceTasks(),
          diagnostics == null || diagnostics.isBlank() ? null : diagnostics);
    } catch (IOException e) {
      notes.add("job status unavailable from the client (" + e.getMessage() + "); outcome from the history file");
      return new RunRecord.JobOutcome(job.getJobID().toString(), "UNKNOWN", false, submitEpoch, observedEnd,
          conf.getInt("mapreduce.job.maps", 0), job.getNumReduceTasks(), null);
    }
  }

  /** Kills a job that runs past its limit, and gives up on one that outlives its kill. */
  static final class Deadline {
    private final Job job;
    private final LongSupplier nowMs;
    private final List<String> notes;
    private final long started;
    private final Duration limit;
    private boolean killed;

    Deadline(Job job, Duration limit, LongSupplier nowMs, List<String> notes) {
      this.job = job;
      this.limit = limit;
      this.nowMs = nowMs;
      this.notes = notes;
      this.started = nowMs.getAsLong();
    }

    void check() {
      long ran = nowMs.getAsLong() - started;
      if (!killed && ran > limit.toMillis()) {
        killed = true;
        notes.add(job.getJobID() + " ran past its limit of " + limit.toSeconds() + " s (jobLimit) and was killed");
        try {
          job.killJob();
        } catch (IOException e) {
          notes.add("killing " + job.getJobID() + " failed: " + e.getMessage());
        }
      } else if (killed && ran > limit.plus(KILL_GRACE).toMillis()) {
        throw new HarnessException(job.getJobID() + " did not end within " + KILL_GRACE.toMinutes()
            + " min of being killed at its limit of " + limit.toSeconds() + " s");
      }
    }
  }
}
