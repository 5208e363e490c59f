package faultbed.faults;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Frame;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A worker node's container, and what faults do to it through Docker's own means and inside its
 * network namespace, never through a cgroup or rule of the host: pause and unpause (freeze), the
 * container's CPU quota (a slower VM), processes started inside it (load), signals inside it
 * (crash), and its own link and queueing discipline (network faults; the container holds
 * NET_ADMIN for that). Its first process only sleeps, so the container, its address and its
 * network stack outlive every node process: a crashed node's ports answer with RST, as a live
 * host's do.
 */
public final class NodeContainer {
  private static final AtomicInteger SEQ = new AtomicInteger();
  /** Between two asks of the engine while waiting for processes to come or go. */
  private static final long POLL = Duration.ofMillis(50).toNanos();
  private static final Duration LOAD_START = Duration.ofSeconds(30);

  private final String id;
  private final String name;
  private final String address;
  private final String gateway;
  /** When the engine started it: a container started again since has lost everything the node ran. */
  private final String startedAt;

  public NodeContainer(String id, String name, String address, String gateway) {
    this.id = id;
    this.name = name;
    this.address = address;
    this.gateway = gateway;
    try {
      this.startedAt = JSON.readTree(DockerEngine.ask("/containers/" + id + "/json").body()).path("State")
          .path("StartedAt").asText();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("cannot read container " + name + "'s state", e);
    }
  }

  public String id() {
    return id;
  }

  public String name() {
    return name;
  }

  public String address() {
    return address;
  }

  private static DockerClient docker() {
    return DockerEngine.client();
  }

  /**
   * Empty while the container runs as the one started (paused or not); otherwise one line saying
   * what became of it. An engine that stops or restarts stops every container without a restart
   * policy, as the node's are, and everything the node ran goes with it.
   */
  public Optional<String> stopped() {
    com.fasterxml.jackson.databind.JsonNode state;
    try {
      DockerEngine.Answer a = DockerEngine.ask("/containers/" + id + "/json");
      if (a.status() == 404) {
        return Optional.of("container " + name + " is gone (removed)");
      }
      if (a.status() != 200) {
        return Optional.of("the Docker engine answers HTTP " + a.status() + " about container " + name);
      }
      state = JSON.readTree(a.body()).path("State");
    } catch (RuntimeException | java.io.IOException e) {
      return Optional.of("the Docker engine does not answer (" + e.getMessage() + ")");
    }
    if (state.path("Running").asBoolean()) {
      String started = state.path("StartedAt").asText();
      return started.equals(startedAt) ? Optional.empty()
          : Optional.of("container " + name + " was started again at " + started + " (first at " + startedAt
              + "), without anything the node ran");
    }
    return Optional.of("container " + name + " stopped at " + state.path("FinishedAt").asText() + " (exit "
        + state.path("ExitCode").asText() + ")");
  }

  private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

  /** One process of the container as the host sees it. */
  public record Process(long hostPid, String command) {}

  /** Every process in the container, its first (the sleeper) included, with host pids. */
  public List<Process> processes() {
    var top = docker().topContainerCmd(id).withPsArgs("-eo pid,args").exec();
    List<Process> out = new ArrayList<>();
    if (top.getProcesses() == null) {
      return out;
    }
    for (String[] row : top.getProcesses()) {
      out.add(new Process(Long.parseLong(row[0].strip()), row.length > 1 ? row[1] : ""));
    }
    return out;
  }

  /** Runs {@code command} inside as root and returns what it printed; fails with its output otherwise. */
  public String exec(List<String> command) {
    return commands().check(command);
  }

  /**
   * Commands run inside the container as root ({@code docker exec}); a container that is gone or
   * stopped runs nothing, which is said as a failed command.
   */
  public Commands commands() {
    return new Commands() {
      @Override
      public Result inspect(List<String> argv) {
        return act(argv);
      }

      @Override
      public Result act(List<String> argv) {
        try {
          return run(argv);
        } catch (com.github.dockerjava.api.exception.NotFoundException
            | com.github.dockerjava.api.exception.ConflictException gone) {
          return new Result(-1, "", NodeContainer.this + " runs nothing: " + gone.getMessage());
        }
      }

      @Override
      public String where() {
        return NodeContainer.this.toString();
      }
    };
  }

  private Commands.Result run(List<String> command) {
    String exec = docker().execCreateCmd(id).withUser("root").withCmd(command.toArray(String[]::new))
        .withAttachStdout(true).withAttachStderr(true).exec().getId();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (var cb = docker().execStartCmd(exec).exec(new ResultCallback.Adapter<Frame>() {
      @Override
      public void onNext(Frame frame) {
        out.writeBytes(frame.getPayload());
      }
    })) {
      if (!cb.awaitCompletion(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("timed out in container " + name + ": " + String.join(" ", command));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted: " + String.join(" ", command), e);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    Long code = docker().inspectExecCmd(exec).exec().getExitCodeLong();
    return new Commands.Result(code == null ? -1 : code.intValue(), out.toString(StandardCharsets.UTF_8).strip(), "");
  }

  /**
   * Starts {@code command} inside as {@code user} ("uid:gid") with {@code env}, detached; returns
   * the exec's id, whose state {@link #running} tells.
   */
  public String start(List<String> command, String user, Map<String, String> env) {
    String exec = docker().execCreateCmd(id).withUser(user).withCmd(command.toArray(String[]::new))
        .withEnv(env.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList()).exec().getId();
    docker().execStartCmd(exec).withDetach(true).exec(new ResultCallback.Adapter<>());
    return exec;
  }

  /** Whether a started command still runs; its exit code otherwise. */
  public Long exitCode(String exec) {
    var state = docker().inspectExecCmd(exec).exec();
    return Boolean.TRUE.equals(state.isRunning()) ? null : state.getExitCodeLong();
  }

  /**
   * SIGKILL to every process but the container's first, from inside: kill(-1) spares only pid 1
   * and the caller. Returns how many processes died.
   */
  public int killAll() {
    int before = processes().size();
    exec(List.of("sh", "-c", "kill -9 -1; true"));
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (processes().size() > 1 && System.nanoTime() < deadline) {
      LockSupport.parkNanos(POLL);
    }
    return Math.max(0, before - processes().size());
  }

  /** Docker's pause: every process of the container frozen; unpause on heal. */
  public Installed pause() {
    docker().pauseContainerCmd(id).exec();
    return () -> {
      if (paused()) {
        docker().unpauseContainerCmd(id).exec();
      }
    };
  }

  private boolean paused() {
    try {
      return Boolean.TRUE.equals(docker().inspectContainerCmd(id).exec().getState().getPaused());
    } catch (com.github.dockerjava.api.exception.NotFoundException gone) {
      return false;
    }
  }

  /** The container's CPU quota cut to {@code cores} cores per wall second, as {@code docker update --cpus}. */
  public Installed limitCpu(double cores) {
    if (cores <= 0) {
      throw new IllegalArgumentException("cpu: expected a positive number of cores, got " + cores);
    }
    long period = 100_000;
    docker().updateContainerCmd(id).withCpuPeriod((int) period).withCpuQuota((int) Math.round(cores * period)).exec();
    return () -> docker().updateContainerCmd(id).withCpuQuota(-1).exec();
  }

  /** Bytes the container's processes hold now, as Docker's memory limit counts them (one stats sample). */
  public long memoryUsage() {
    try (var sample = new com.github.dockerjava.api.async.ResultCallback.Adapter<com.github.dockerjava.api.model.Statistics>() {
      volatile com.github.dockerjava.api.model.Statistics got;

      @Override
      public void onNext(com.github.dockerjava.api.model.Statistics s) {
        got = s;
      }
    }) {
      docker().statsCmd(id).withNoStream(true).exec(sample).awaitCompletion(30, java.util.concurrent.TimeUnit.SECONDS);
      if (sample.got == null || sample.got.getMemoryStats() == null || sample.got.getMemoryStats().getUsage() == null) {
        throw new PreconditionFailed(this + ": Docker gave no memory usage");
      }
      return sample.got.getMemoryStats().getUsage();
    } catch (java.io.IOException | InterruptedException e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      throw new IllegalStateException(this + ": Docker's stats did not come", e);
    }
  }

  /**
   * The container's memory limited to {@code bytes} (swap included, so nothing goes to swap instead)
   * until healed: the kernel reclaims down to it and kills the container's largest process where it
   * cannot. Heal lifts it to all the engine's memory, the most Docker allows.
   */
  public Installed limitMemory(long bytes) {
    if (bytes < 1) {
      throw new IllegalArgumentException("memory limit: expected at least 1 byte, got " + bytes);
    }
    docker().updateContainerCmd(id).withMemory(bytes).withMemorySwap(bytes).exec();
    // Docker keeps a limit once set (0 leaves it, below 6 MB is refused): the engine's whole memory lifts
    // it, with memory and swap twice that (-1 for swap would be taken for "unchanged", and v1 refuses a
    // memory limit above the memory-and-swap one)
    return () -> {
      long all = docker().infoCmd().exec().getMemTotal();
      docker().updateContainerCmd(id).withMemory(all).withMemorySwap(2 * all).exec();
    };
  }

  /**
   * {@code count} copies of {@code loop} started inside under a tag of their own; heal kills them
   * by that tag and runs {@code after} (a cleaning command) if given.
   */
  public Installed load(String runId, int count, String loop, String after) {
    String tag = "faultbed-load-" + runId + "-" + SEQ.incrementAndGet();
    // the tag is the shell's $0, so it shows in the process list and pkill -f finds it
    for (int i = 0; i < count; i++) {
      start(List.of("sh", "-c", loop, tag + "-" + i), "root", Map.of());
    }
    Installed installed = () -> {
      try {
        exec(List.of("sh", "-c", "pkill -9 -f '" + tag + "'; " + (after == null ? "true" : after)));
      } catch (IllegalStateException | com.github.dockerjava.api.exception.DockerException gone) {
        // the node (and its load) died with a crash
      }
    };
    // an exec starts within seconds, but on a machine whose CPUs are taken (two clusters' nodes
    // beside a long suite) it was seen to take more than five
    long deadline = System.nanoTime() + LOAD_START.toNanos();
    while (processes().stream().filter(p -> p.command().contains(tag)).count() < count) {
      if (System.nanoTime() > deadline) {
        installed.heal(); // those that did start
        throw new IllegalStateException("load processes did not start in container " + name + " within "
            + LOAD_START.toSeconds() + " s");
      }
      LockSupport.parkNanos(POLL);
    }
    return installed;
  }

  /**
   * The node's network faults, made inside its own namespace: its link down for a blackhole or a
   * silent death, a token bucket on what it sends for a bandwidth cap, netem for latency. RST
   * suppression needs iptables, which the node image lacks: it is made from the host (as root) in
   * the container's namespace.
   */
  public NetworkFaults networkFaults() {
    return new NetworkFaults() {
      @Override
      public String name() {
        return "container";
      }


      @Override
      public Installed cap(String runId, List<Integer> ports, long bytesPerSecond) {
        return TrafficControl.wholeLink(commands(), "eth0", TcShape.tbf(bytesPerSecond));
      }

      @Override
      public Installed delay(String runId, List<Integer> ports, Duration delay, Duration jitter) {
        return delay(runId, ports, delay, jitter, 0);
      }

      @Override
      public Installed delay(String runId, List<Integer> ports, Duration delay, Duration jitter, double reorder) {
        TrafficControl.requireNetem();
        return TrafficControl.wholeLink(commands(), "eth0", TcShape.netem(delay, jitter, reorder));
      }

      @Override
      public Installed dropAll(String runId, List<Integer> ports) {
        return unplug();
      }

      @Override
      public Installed silence(String runId, List<Integer> ports) {
        return unplug();
      }

      @Override
      public Installed dropRst(String runId, List<Integer> ports) {
        return hostRules().dropRst(runId, ports);
      }

      /** The whole link lossy, as a blackhole takes the whole link. */
      @Override
      public Installed dropRandomly(String runId, List<Integer> ports, double probability) {
        List<String> out = new ArrayList<>(List.of("-o", "eth0"));
        out.addAll(Iptables.randomly(probability));
        List<String> in = new ArrayList<>(List.of("-i", "eth0"));
        in.addAll(Iptables.randomly(probability));
        Iptables rules = hostRules();
        return Installed.all(List.of(rules.drop(runId, "OUTPUT", out), rules.drop(runId, "INPUT", in)));
      }

      /** Rules in the container's namespace, made from the host: they go with the container. */
      @Override
      public Installed cut(String runId, List<String> addresses, boolean inbound, boolean outbound) {
        return hostRules().cut(runId, addresses, inbound, outbound);
      }

      @Override
      public Installed duplicate(String runId, List<String> hosts, double probability) {
        return hostRules().duplicate(runId, hosts, probability);
      }
    };
  }

  /**
   * The node's link goes down from inside: nothing reaches it or leaves it, not even a refusal.
   * Heal brings it up with its default route back.
   */
  public Installed unplug() {
    exec(List.of("ip", "link", "set", "eth0", "down"));
    return () -> {
      try {
        plug();
      } catch (RuntimeException gone) {
        // the container is gone: nothing to heal
      }
    };
  }

  /** The node's link up, with its default route back (a link going down takes it); a link already up stays. */
  public void plug() {
    exec(List.of("sh", "-c", "ip link set eth0 up && ip route replace default via " + gateway + " dev eth0"));
  }

  /**
   * Nothing the node sends reaches the harness's address (the RM's heartbeats among it): a
   * blackhole route inside the node, which needs no iptables.
   */
  public Installed cutHarness() {
    exec(List.of("ip", "route", "replace", "blackhole", gateway + "/32"));
    return () -> commands().act(List.of("ip", "route", "del", "blackhole", gateway + "/32")); // gone stays gone
  }

  /**
   * Packet filter rules in the node's namespace, made from the host (root) with nsenter: the node
   * image has no iptables. They go with the container.
   */
  private Iptables hostRules() {
    List<String> p = new ArrayList<>(Iptables.problems());
    if (!Capability.isRoot()) {
      p.add("RST suppression and packet loss on the containers backend need root on the host: the node image has no"
          + " iptables, so the rule is made from the host in the node's namespace");
    }
    if (!p.isEmpty()) {
      throw new PreconditionFailed(p.get(0));
    }
    Long pid = docker().inspectContainerCmd(id).exec().getState().getPidLong();
    return Iptables.namespace(Commands.local().within(this + "'s namespace",
        List.of("nsenter", "-t", Long.toString(pid), "-n")), name);
  }

  @Override
  public String toString() {
    return "container " + name + " (" + address + ")";
  }
}
