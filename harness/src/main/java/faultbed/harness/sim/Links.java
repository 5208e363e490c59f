package faultbed.harness.sim;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The nodes' links where faults shape them, as the namespace backend shapes a node's link: a
 * bandwidth cap limits what the node sends and what it receives, each to its rate (a token bucket
 * on both ends of its link), and latency delays every packet each way. A transfer through a shaped
 * link is a flow here. The flows through a capped direction share its rate max-min fairly
 * (progressive filling), as long-lived TCP flows share a bottleneck; a new connection through a
 * delayed link first spends round trips on its handshake and its request, and, where no cap limits
 * it, on TCP's slow start. Transfers between nodes whose links nothing shapes, and a node's transfers
 * to itself, are not flows: the time model's times include them.
 */
final class Links {
  /** Linux's initial congestion window (ten segments of 1460 bytes), doubled each round trip in slow start. */
  static final double INITIAL_WINDOW_BYTES = 14_600;
  /** Bytes this close to a delivery count as delivered (the fluid arithmetic's rounding). */
  private static final double EPSILON_BYTES = 1e-3;

  private final EventLoop loop;
  /** Flows with bytes on their way. */
  private final List<Flow> busy = new ArrayList<>();

  Links(EventLoop loop) {
    this.loop = loop;
  }

  /** Whether a transfer from one node to another crosses a shaped link; a node's transfer to itself never does. */
  static boolean shaped(LiveNode from, LiveNode to) {
    return from != to && (from.shaped() || to.shaped());
  }

  /** A connection's round trip through the two nodes' links: each delayed link delays it each way. */
  static long roundTripMs(LiveNode from, LiveNode to) {
    return 2 * (from.delayMs + to.delayMs);
  }

  /** Round trips TCP's slow start takes to deliver {@code bytes}, the window doubling from its initial size. */
  static int slowStartRounds(double bytes) {
    return (int) Math.ceil(Math.log(1 + bytes / INITIAL_WINDOW_BYTES) / Math.log(2));
  }

  /** A flow from one node to another, idle until bytes are sent through it. */
  Flow open(LiveNode from, LiveNode to) {
    return new Flow(from, to);
  }

  /** A node's link changed (a cap or a delay began or ended): every busy flow's rate from now. */
  void changed() {
    reallocate();
  }

  /** Data sent through one connection after another between two nodes, in the order it was sent. */
  final class Flow {
    final LiveNode from;
    final LiveNode to;
    /** Bytes sent and bytes delivered since it opened; delivered counted up to {@code since}. */
    private double sent;
    private double delivered;
    private long since;
    private double rate;
    /** Data moves from this time on: a new connection's round trips come first. */
    private long dataFrom;
    private int generation;
    private boolean closed;
    private final ArrayDeque<Pending> pending = new ArrayDeque<>();

    private record Pending(double upTo, Runnable whenDelivered) { }

    private Flow(LiveNode from, LiveNode to) {
      this.from = from;
      this.to = to;
    }

    /**
     * Sends {@code bytes} after what it is already sending; {@code whenDelivered} runs once they are
     * through. An idle flow opens a new connection, whose round trips come first.
     */
    void send(long bytes, Runnable whenDelivered) {
      if (closed) {
        return;
      }
      long now = loop.now();
      advance(now);
      boolean idle = pending.isEmpty();
      sent += bytes;
      pending.add(new Pending(sent, whenDelivered));
      if (idle) {
        long roundTrip = roundTripMs(from, to);
        boolean capped = from.capBytesPerSecond < Double.POSITIVE_INFINITY || to.capBytesPerSecond < Double.POSITIVE_INFINITY;
        dataFrom = now + roundTrip * (2 + (capped ? 0 : slowStartRounds(bytes)));
        busy.add(this);
        reallocate();
      } else {
        schedule(now);
      }
    }

    /** Of what it has been sent, the share delivered by now (1 when it has been sent nothing). */
    double deliveredShare() {
      return sent <= 0 ? 1 : Math.min(1, deliveredBy(loop.now()) / sent);
    }

    /** Nothing more is delivered (its reader or its server is gone). */
    void close() {
      if (!closed) {
        closed = true;
        generation++;
        pending.clear();
        if (busy.remove(this)) {
          reallocate();
        }
      }
    }

    private double deliveredBy(long t) {
      if (rate == Double.POSITIVE_INFINITY) {
        return t >= dataFrom ? sent : delivered;
      }
      return delivered + rate * Math.max(0, t - Math.max(since, dataFrom)) / 1000.0;
    }

    private void advance(long now) {
      delivered = Math.min(sent, deliveredBy(now));
      since = now;
    }

    private void schedule(long now) {
      int g = ++generation;
      Pending next = pending.peek();
      if (next == null) {
        return;
      }
      long at;
      if (rate == Double.POSITIVE_INFINITY) {
        at = Math.max(now, dataFrom);
      } else if (rate <= 0) {
        return; // a link of no rate delivers nothing until it changes
      } else {
        at = Math.max(now, dataFrom) + (long) Math.ceil((next.upTo - delivered) / rate * 1000.0);
      }
      loop.at(at, () -> {
        if (generation == g) {
          deliver();
        }
      });
    }

    private void deliver() {
      long now = loop.now();
      advance(now);
      List<Runnable> done = new ArrayList<>();
      while (!pending.isEmpty() && pending.peek().upTo <= delivered + EPSILON_BYTES) {
        done.add(pending.poll().whenDelivered);
      }
      if (pending.isEmpty()) {
        delivered = sent;
        busy.remove(this);
        reallocate(); // the others share what it leaves
      } else {
        schedule(now);
      }
      done.forEach(Runnable::run);
    }
  }

  /**
   * Max-min fair rates by progressive filling: the most constrained capped direction shares its rate
   * equally among its unfixed flows, which are fixed at that share; repeat with what is left. A flow
   * through no capped direction (a delayed link only) is limited by none.
   */
  private void reallocate() {
    long now = loop.now();
    Map<Integer, Double> left = new HashMap<>();
    Map<Integer, Integer> unfixed = new HashMap<>();
    Map<Flow, int[]> through = new HashMap<>();
    for (Flow flow : busy) {
      flow.advance(now);
      List<Integer> directions = new ArrayList<>(2);
      if (flow.from.capBytesPerSecond < Double.POSITIVE_INFINITY) {
        directions.add(2 * flow.from.index);
        left.putIfAbsent(2 * flow.from.index, flow.from.capBytesPerSecond);
      }
      if (flow.to.capBytesPerSecond < Double.POSITIVE_INFINITY) {
        directions.add(2 * flow.to.index + 1);
        left.putIfAbsent(2 * flow.to.index + 1, flow.to.capBytesPerSecond);
      }
      for (int d : directions) {
        unfixed.merge(d, 1, Integer::sum);
      }
      through.put(flow, directions.stream().mapToInt(Integer::intValue).toArray());
      flow.rate = directions.isEmpty() ? Double.POSITIVE_INFINITY : -1;
    }
    while (true) {
      int tightest = -1;
      double share = Double.POSITIVE_INFINITY;
      for (Map.Entry<Integer, Integer> e : unfixed.entrySet()) {
        if (e.getValue() > 0) {
          double s = Math.max(0, left.get(e.getKey())) / e.getValue();
          if (s < share || s == share && e.getKey() < tightest) {
            share = s;
            tightest = e.getKey();
          }
        }
      }
      if (tightest < 0) {
        break;
      }
      for (Flow flow : busy) {
        int[] directions = through.get(flow);
        if (flow.rate >= 0 || !contains(directions, tightest)) {
          continue;
        }
        flow.rate = share;
        for (int d : directions) {
          left.merge(d, -share, Double::sum);
          unfixed.merge(d, -1, Integer::sum);
        }
      }
    }
    for (Flow flow : new ArrayList<>(busy)) {
      flow.schedule(now);
    }
  }

  private static boolean contains(int[] values, int value) {
    for (int v : values) {
      if (v == value) {
        return true;
      }
    }
    return false;
  }
}
