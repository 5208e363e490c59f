package faultbed.harness.timeline;

import faultbed.faults.Installed;
import faultbed.faults.PreconditionFailed;
import faultbed.harness.Node;
import faultbed.results.FaultEffect;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One part of a node stopped where it stands (SIGSTOP) for a while and then continued (SIGCONT), as
 * a long garbage-collection pause or a swapped-out process stalls it: every thread, timer and
 * socket of the part held, the rest of the node going on. Which Hadoop path notices depends on the
 * part: the ResourceManager's node expiry for a NodeManager (its heartbeats stop), the task timeout
 * for a task whose pings stop, the AM liveness expiry for an ApplicationMaster.
 */
public record Pause(Target target, Part part, Duration duration) implements Fault {
  /** Which processes of the node stop. */
  public enum Part {
    /**
     * The node's own daemon: its NodeManager (heartbeats, container manager, shuffle server), and its
     * DataNode where the backend runs both in one JVM (namespace, containers). Its containers run on.
     */
    NODEMANAGER,
    /** Every container process running on the node when the pause starts; the NodeManager goes on. */
    CONTAINERS,
    /** The job's ApplicationMaster's JVM, on a node that runs it. */
    APPLICATION_MASTER,
    /** One map attempt's JVM on the node: the running map with the lowest attempt id. */
    MAP,
    /** One reduce attempt's JVM on the node: the running reduce with the lowest attempt id. */
    REDUCE;

    /** As a scenario writes it. */
    public String label() {
      return FaultKind.choice(this);
    }
  }

  public static final FaultKind KIND = FaultKind.kind("pause", FaultEffect.STALLS)
      .does("one part of the node stopped (SIGSTOP) for a while, the rest going on", "`of` the node stopped"
          + " (SIGSTOP) and continued after `for`: `nodemanager` (heartbeats, container manager and shuffle server"
          + " stop, containers run on; on namespace and containers the DataNode shares its JVM and stops too; not on"
          + " mini, whose NodeManagers live in the harness's JVM), `containers` (every container process running at"
          + " the start, the NodeManager heartbeating on), `application-master` (the AM's JVM; target `application-master`), `map`"
          + " or `reduce` (the running attempt of that type with the lowest id: a task JVM stalled)")
      .param(FaultKind.Param.requiredChoice("of", FaultKind.choices(Part.class), "`of` (`nodemanager`, `containers`,"
          + " `application-master`, `map`, `reduce`)").noted("which part of the node stops"))
      .lasts(FaultKind.Lasts.FOR_ONLY)
      .made((target, lasts, p) -> new Pause(target, FaultKind.chosen(Part.class, p.choice("of", FaultKind.choices(Part.class))
              .orElseThrow(() -> p.invalid("of", "one of " + String.join(", ", FaultKind.choices(Part.class))))),
              Optional.ofNullable(lasts).orElseThrow(() -> p.invalid("for", "how long the pause lasts, e.g. \"30s\""))),
          // a NodeManager needs a process of the node's own; every other part is a container's
          t -> List.of(new FaultKind.Example("pause nodemanager", new Pause(t, Part.NODEMANAGER, Duration.ofSeconds(1))),
              new FaultKind.Example("pause task or AM", new Pause(t, Part.MAP, Duration.ofSeconds(1)))));

  public Pause {
    if (part == null) {
      throw new IllegalArgumentException("of: expected one of " + String.join(", ", FaultKind.choices(Part.class)));
    }
    if (duration == null || duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException("for: expected how long the pause lasts, e.g. \"30s\"");
    }
  }

  public static Pause of(Target target, Part part, Duration lasts) {
    return new Pause(target, part, lasts);
  }

  @Override
  public String kind() {
    return KIND.name();
  }

  /**
   * A paused NodeManager is lost to the ResourceManager and to fetching peers, but its containers
   * run on; paused containers or a task stall the node's work, not the node; a paused AM stalls the
   * job, not the node.
   */
  @Override
  public FaultEffect effect() {
    return switch (part) {
      case NODEMANAGER -> FaultEffect.CUTS_OFF;
      case CONTAINERS, MAP, REDUCE -> FaultEffect.SLOWS;
      case APPLICATION_MASTER -> FaultEffect.NONE;
    };
  }

  /** A NodeManager paused apart from the rest needs a node that is a process of its own. */
  @Override
  public Optional<Unsupported> unsupported(faultbed.harness.ClusterSpec cluster) {
    Optional<Unsupported> kind = Fault.super.unsupported(cluster);
    if (kind.isPresent() || part != Part.NODEMANAGER) {
      return kind;
    }
    return cluster.backend().refuses(faultbed.harness.Backend.Mechanism.NODE_DAEMON).map(why -> new Unsupported("of", why));
  }

  @Override
  public Injection inject(Node node, FaultContext context) {
    Map<String, String> detail = new LinkedHashMap<>();
    detail.put("of", part.label());
    Chosen chosen = chosen(node);
    if (chosen.processes().isEmpty()) {
      throw new PreconditionFailed("pause of " + part.label() + " on node " + node.index() + ": " + switch (part) {
        case NODEMANAGER -> "the node has no daemon process of its own";
        case CONTAINERS -> "no container runs there";
        case APPLICATION_MASTER -> "no ApplicationMaster runs there (target \"application-master\" picks the node that runs it)";
        case MAP, REDUCE -> "no " + part.label() + " attempt runs there";
      });
    }
    chosen.attempt().ifPresent(a -> detail.put("attempt", a));
    Set<Long> pids = new LinkedHashSet<>();
    chosen.processes().forEach(p -> pids.add(p.pid()));
    List<Installed> stopped = new ArrayList<>();
    stopped.add(node.stopProcesses(context.ledger(), context.runId(), pids));
    if (part == Part.CONTAINERS) {
      // a container's launch script may have forked its JVM between the listing and the signal
      for (int pass = 0; pass < 5; pass++) {
        Set<Long> more = new LinkedHashSet<>();
        node.processTable().stream().filter(p -> !p.daemon() && !pids.contains(p.pid())).forEach(p -> more.add(p.pid()));
        if (more.isEmpty()) {
          break;
        }
        pids.addAll(more);
        stopped.add(node.stopProcesses(context.ledger(), context.runId(), more));
      }
    }
    detail.put("processesStopped", Integer.toString(pids.size()));
    return new Injection(detail, Installed.all(stopped));
  }

  /** The processes a pause stops, and for a task the attempt whose JVM they are. */
  public record Chosen(List<Node.Proc> processes, Optional<String> attempt) {}

  /**
   * What of {@code table} (a node's processes now) is the part: its daemon, every container process,
   * the AM's JVM, or the JVM of the running attempt of the type with the lowest id (YarnChild gets
   * its attempt id as an argument). A launch script is never the part: its line names the JVM's
   * class too, but the JVM it starts is what stalls.
   */
  public static Chosen choose(Part part, List<Node.Proc> table) {
    return switch (part) {
      case NODEMANAGER -> new Chosen(table.stream().filter(Node.Proc::daemon).toList(), Optional.empty());
      case CONTAINERS -> new Chosen(table.stream().filter(p -> !p.daemon()).toList(), Optional.empty());
      case APPLICATION_MASTER -> new Chosen(table.stream().filter(p -> !p.daemon() && isJvmOf(p, "MRAppMaster")).toList(),
          Optional.empty());
      case MAP, REDUCE -> {
        String type = part == Part.MAP ? "_m_" : "_r_";
        Optional<String> attempt = table.stream().filter(p -> !p.daemon() && isJvmOf(p, "YarnChild"))
            .flatMap(p -> words(p).stream()).filter(w -> w.startsWith("attempt_") && w.contains(type))
            .min(Comparator.naturalOrder());
        yield new Chosen(attempt.map(a -> table.stream().filter(p -> !p.daemon() && isJvmOf(p, "YarnChild")
            && words(p).contains(a)).toList()).orElse(List.of()), attempt);
      }
    };
  }

  /**
   * The part on the node now; for a task, an attempt the node runs but whose JVM has not started yet
   * (its launch script still runs) is waited for, up to {@link #JVM_START}.
   */
  private Chosen chosen(Node node) {
    long deadline = System.nanoTime() + JVM_START.toNanos();
    String type = part == Part.MAP ? "_m_" : "_r_";
    while (true) {
      Chosen c = choose(part, node.processTable());
      if (!c.processes().isEmpty() || !(part == Part.MAP || part == Part.REDUCE) || System.nanoTime() > deadline
          || node.runningAttempts().stream().noneMatch(a -> a.contains(type))) {
        return c;
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return c;
      }
    }
  }

  /** How long a task's JVM may take to appear once its container runs. */
  private static final Duration JVM_START = Duration.ofSeconds(15);

  private static List<String> words(Node.Proc p) {
    return java.util.Arrays.asList(p.command().split("\\s+"));
  }

  /** A JVM running {@code mainClass}, not the shell that launched it (whose line names the class too). */
  private static boolean isJvmOf(Node.Proc p, String mainClass) {
    String first = p.command().split("\\s+", 2)[0];
    return (first.endsWith("/java") || first.equals("java")) && p.command().contains(mainClass);
  }
}
