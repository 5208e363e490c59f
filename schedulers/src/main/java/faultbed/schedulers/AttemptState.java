package faultbed.schedulers;

public enum AttemptState {
  /** Asked for or waiting for a container; has no node yet. */
  NEW,
  /** Has a container and is starting or running. */
  RUNNING,
  SUCCEEDED, FAILED, KILLED;

  public boolean active() {
    return this == NEW || this == RUNNING;
  }
}
