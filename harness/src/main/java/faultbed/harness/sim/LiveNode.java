package faultbed.harness.sim;

import org.apache.hadoop.yarn.api.records.NodeId;

/**
 * A simulated node while a job runs: its free slots, whether it is still alive, whether it answers,
 * and how much a fault slows it.
 */
final class LiveNode {
  /** What a reducer's fetch from the node's shuffle server meets. */
  enum Server {
    /** It answers. */
    SERVING,
    /** The NodeManager is gone but its host is up: every connect is refused at once (TCP RST). */
    REFUSING,
    /** Nothing answers, not even with a refusal: every connect waits for its timeout. */
    SILENT,
    /** The host accepts connections but the frozen server never answers: every read waits for its timeout. */
    STALLED
  }

  /** The NodeManager's port numbers are fixed; only the address tells nodes apart. */
  static final int NM_PORT = 45454;
  private static final int NM_HTTP_PORT = 8042;

  final SimulatedNode node;
  /** Its place in the cluster's list: the node's number in records. */
  final int index;
  final NodeId nodeId;
  final String httpAddress;
  int freeSlots;
  boolean alive = true;
  long deathTime = -1;
  Server server = Server.SERVING;
  /** Since when its shuffle server has not answered (-1 while it answers). */
  long unreachableSince = -1;
  /** Its processes are stopped (SIGSTOP): no work, no reports, no heartbeats, until thawed. */
  boolean frozen;
  /**
   * Nothing gets to or from its NodeManager's ports, nor its heartbeats to the RM (a blackhole): its
   * shuffle server is silent and the AM's launcher cannot reach it, while its tasks run and report on.
   */
  boolean cutOff;
  /** What its cut-off NodeManager will do once reachable again (a launch, a container's exit report). */
  final java.util.List<Runnable> onReconnect = new java.util.ArrayList<>();
  /** The ResourceManager declared it LOST and has not seen it since. */
  boolean lost;
  /** What its frozen processes will do once thawed, in the order they would have done it. */
  final java.util.List<Runnable> onThaw = new java.util.ArrayList<>();
  /** The machine whose cores it shares (a machine of its own on a real cluster). */
  Machine machine;
  /** Threads that faults keep busy here, competing with its tasks for the CPU. */
  int spinners;
  /** Its cgroup's CPU limit in cores, infinite for none. */
  double cpuLimit = Double.POSITIVE_INFINITY;
  /** How many times longer work takes here for what faults do besides using CPU (disk contention), from the model. */
  double otherSlowdown = 1;
  /** Each disk's rate in bytes a second while a slow-disk holds it to one; null while none does. */
  double[] diskRates;
  /** Its link's rate each way in bytes a second while a bandwidth cap is in force there, infinite otherwise. */
  double capBytesPerSecond = Double.POSITIVE_INFINITY;
  /** How long its link delays each packet each way while latency is in force there, 0 otherwise. */
  long delayMs;

  LiveNode(SimulatedNode node, int index) {
    this.node = node;
    this.index = index;
    this.nodeId = NodeId.newInstance(node.address(), NM_PORT);
    this.httpAddress = node.address() + ":" + NM_HTTP_PORT;
    this.freeSlots = node.slots();
  }

  /**
   * Milliseconds a byte takes through its disks, spread over them alike, with {@code users} tasks
   * sharing each: 0 unless a fault holds one to a rate (the model's work includes a healthy disk).
   */
  double msPerByte(int users) {
    if (diskRates == null) {
      return 0;
    }
    double ms = 0;
    for (double rate : diskRates) {
      ms += rate == Double.POSITIVE_INFINITY ? 0 : 1000.0 * users / rate;
    }
    return ms / diskRates.length;
  }

  /** The scheduler gives it containers: it heartbeats (a frozen, cut-off or lost NodeManager does not) and is alive. */
  boolean schedulable() {
    return alive && !frozen && !cutOff && !lost;
  }

  /** A fault shapes its link: a cap or a delay. */
  boolean shaped() {
    return capBytesPerSecond < Double.POSITIVE_INFINITY || delayMs > 0;
  }

  boolean serving() {
    return server == Server.SERVING;
  }

  /** Runs {@code step} now, or once the node is thawed if it is frozen (a stopped process does nothing meanwhile). */
  void whenAwake(Runnable step) {
    if (frozen) {
      onThaw.add(step);
    } else {
      step.run();
    }
  }

  /**
   * Runs a step of its NodeManager's now, or once it can be reached: thawed if frozen, reconnected
   * if cut off.
   */
  void whenReachable(Runnable step) {
    if (frozen) {
      onThaw.add(step);
    } else if (cutOff) {
      onReconnect.add(step);
    } else {
      step.run();
    }
  }
}
