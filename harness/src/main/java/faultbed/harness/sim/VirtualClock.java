package faultbed.harness.sim;

import org.apache.hadoop.yarn.util.Clock;

/** The only time source the ApplicationMaster's classes see; only the event loop moves it forward. */
final class VirtualClock implements Clock {
  private long now;

  VirtualClock(long start) {
    this.now = start;
  }

  @Override
  public long getTime() {
    return now;
  }

  void advanceTo(long time) {
    if (time < now) {
      throw new IllegalStateException("virtual time would go back from " + now + " to " + time);
    }
    now = time;
  }
}
