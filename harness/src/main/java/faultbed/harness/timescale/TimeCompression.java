package faultbed.harness.timescale;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * One factor for every Hadoop timer a failure experiment depends on, so seed 003's ten-minute
 * expiry and three-minute timeouts play out in a run a machine can afford, in proportion. A scale
 * of 0.1 makes a 600 s expiry 60 s and a 10 s shuffle back-off 1 s.
 *
 * <p>Timers with a configuration key are set on the cluster (so every job inherits them), unless
 * the scenario sets that key itself: an explicit value is taken as already compressed. Timers Hadoop
 * hard-codes are rewritten by {@link TimeScaleAgent} in reduce and AM JVMs. Heartbeats keep a floor
 * of 100 ms, below which the cluster's own overhead would become the experiment.
 */
public final class TimeCompression {

  /**
   * A configurable timer: its key, Hadoop's default, the floor it is never scaled below, why it
   * matters, and whether its key counts seconds rather than milliseconds.
   */
  public record Timer(String key, long defaultMs, long floorMs, String what, boolean inSeconds) {
    Timer(String key, long defaultMs, long floorMs, String what) {
      this(key, defaultMs, floorMs, what, false);
    }

    long scaled(double scale) {
      return Math.max(floorMs, Math.round(defaultMs * scale));
    }

    /** A duration as the key's value, in the key's own unit. */
    public String value(long ms) {
      return Long.toString(inSeconds ? Math.max(1, Math.round(ms / 1000.0)) : ms);
    }

    String unit() {
      return inSeconds ? " s" : " ms";
    }
  }

  public static final List<Timer> TIMERS = List.of(
      new Timer("yarn.nm.liveness-monitor.expiry-interval-ms", 600_000, 1_000,
          "node expiry: a silent NodeManager is declared LOST (checked every third of it)"),
      new Timer("yarn.am.liveness-monitor.expiry-interval-ms", 600_000, 1_000, "ApplicationMaster expiry"),
      new Timer("yarn.resourcemanager.nodemanagers.heartbeat-interval-ms", 1_000, 100, "NodeManager heartbeat"),
      new Timer("yarn.app.mapreduce.am.scheduler.heartbeat.interval-ms", 1_000, 100, "AM-RM heartbeat"),
      new Timer("yarn.client.nodemanager-connect.max-wait-ms", 180_000, 1_000,
          "how long the AM keeps trying a NodeManager it cannot reach"),
      new Timer("yarn.client.nodemanager-connect.retry-interval-ms", 10_000, 100, "between those tries"),
      new Timer("ipc.client.connect.timeout", 20_000, 1_000,
          "one RPC connect attempt to a silent host (the AM cleaning up a dead node's containers retries it 45 times)"),
      new Timer("ipc.client.connect.retry.interval", 1_000, 100, "between RPC connect retries"),
      new Timer("mapreduce.task.timeout", 600_000, 1_000, "a task silent this long is failed"),
      // faultbed's own base: 1 s rather than Hadoop's 1% of the task timeout, so progress rates are visible
      new Timer("mapreduce.task.progress-report.interval", 1_000, 300, "task status reports to the AM"),
      new Timer("mapreduce.task.exit.timeout", 60_000, 1_000, "wait for a finished task's JVM to exit"),
      new Timer("mapreduce.task.exit.timeout.check-interval-ms", 20_000, 100, "how often that is checked"),
      new Timer("mapreduce.reduce.shuffle.connect.timeout", 180_000, 1_000, "shuffle connect timeout"),
      new Timer("mapreduce.reduce.shuffle.read.timeout", 180_000, 1_000, "shuffle read timeout"),
      new Timer("mapreduce.reduce.shuffle.retry-delay.max.ms", 60_000, 100, "cap on the shuffle back-off"),
      new Timer("mapreduce.reduce.shuffle.fetch.retry.interval-ms", 1_000, 100,
          "fetch retry interval (NodeManager-restart recovery only)"),
      new Timer("mapreduce.reduce.shuffle.fetch.retry.timeout-ms", 180_000, 1_000,
          "fetch retry timeout (NodeManager-restart recovery only)"),
      new Timer("mapreduce.job.speculative.retry-after-no-speculate", 1_000, 100, "speculator scan interval"),
      new Timer("mapreduce.job.speculative.retry-after-speculate", 15_000, 100, "speculator pause after a launch"),
      new Timer("yarn.app.mapreduce.am.job.task.estimator.exponential.smooth.lambda-ms", 60_000, 1_000,
          "smoothing window of Hadoop's exponential estimator"),
      new Timer("yarn.app.mapreduce.am.job.task.estimator.simple.exponential.smooth.lambda-ms", 120_000, 1_000,
          "smoothing window of Hadoop's simple-exponential estimator"),
      new Timer("yarn.app.mapreduce.am.job.task.estimator.simple.exponential.smooth.stagnated-ms", 360_000, 1_000,
          "how long without progress the simple-exponential estimator calls an attempt stagnated"),
      new Timer("mapreduce.job.reducer.unconditional-preempt.delay.sec", 300_000, 1_000,
          "a map waiting this long for a container makes the AM preempt a reducer, whatever the headroom", true));

  /** What keeps its real duration whatever the scale, and why. */
  public static final List<String> UNSCALED = List.of(
      "task work and JVM start-up: real CPU and disk time, the thing being measured",
      "the AM's 5 s wait after unregistering (a hard-coded sleep in MRAppMaster; after the job's finish time)",
      "HDFS timers (DataNode heartbeats and expiry): no DataNode fails in these experiments",
      "the shuffle back-off growth rate 1.3 and attempt counts: numbers, not times");

  private final double scale;

  public TimeCompression(double scale) {
    if (!(scale > 0 && scale <= 1)) {
      throw new IllegalArgumentException("timeScale: expected a number in (0, 1], got " + scale);
    }
    this.scale = scale;
  }

  public double scale() {
    return scale;
  }

  public boolean active() {
    return scale < 1;
  }

  /** Scaled values of every configurable timer the scenario does not set itself. */
  public Map<String, String> settings(Map<String, String> explicit) {
    Map<String, String> out = new LinkedHashMap<>();
    if (!active()) {
      return out;
    }
    for (Timer t : TIMERS) {
      if (!explicit.containsKey(t.key())) {
        out.put(t.key(), t.value(t.scaled(scale)));
      }
    }
    return out;
  }

  /**
   * The JVM option that attaches the agent, for reduce and AM command lines: {@code agentJar} as the
   * container sees it (an absolute path on the harness's machine, or a name in the container's
   * working folder where the jar is shipped with the job).
   */
  public String javaAgentOption(Path agentJar) {
    return "-javaagent:" + agentJar + "=" + scale;
  }

  /**
   * Writes a jar holding only a manifest naming {@link TimeScaleAgent}: container JVMs already have
   * faultbed and Byte Buddy on their classpath, and the JVM loads an agent's class from there.
   */
  public static Path writeAgentJar(Path dir) {
    return writeManifestJar(dir, "faultbed-timescale-agent.jar", TimeScaleAgent.class);
  }

  /** Writes {@code name} in {@code dir}: a jar holding only a manifest naming {@code premain}'s class as its agent. */
  public static Path writeManifestJar(Path dir, String name, Class<?> premain) {
    Path jar = dir.resolve(name);
    Manifest m = new Manifest();
    m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    m.getMainAttributes().put(new Attributes.Name("Premain-Class"), premain.getName());
    try {
      Files.createDirectories(dir);
      try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out, m)) {
        j.flush();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the agent jar " + jar, e);
    }
    return jar;
  }

  /**
   * Every timer with the value in force for a job, and how it was set: scaled, set by the scenario,
   * or rewritten by the agent; for the run record.
   */
  public Map<String, String> describe(java.util.function.Function<String, String> inForce) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Timer t : TIMERS) {
      String v = inForce.apply(t.key());
      long scaled = t.scaled(scale);
      String how;
      String byDefault = t.value(t.defaultMs());
      if (v == null) {
        how = "default " + byDefault + t.unit();
        v = byDefault;
      } else if (active() && v.equals(t.value(scaled))) {
        how = scaled == Math.round(t.defaultMs() * scale) ? "scaled from " + byDefault
            : "floor (" + byDefault + " x " + scale + " is below it)";
      } else if (v.equals(byDefault)) {
        how = "default";
      } else {
        how = "set by the scenario";
      }
      out.put(t.key(), v + t.unit() + " (" + how + ")");
    }
    for (TimeScaleAgent.HardCoded h : TimeScaleAgent.REWRITES) {
      String name = h.className().substring(h.className().lastIndexOf('.') + 1) + "." + h.method();
      double base = h.value().doubleValue();
      out.put(name, active() ? Math.round(base * scale) + " ms (agent, scaled from " + Math.round(base) + "): " + h.what()
          : Math.round(base) + " ms (unscaled): " + h.what());
    }
    return out;
  }
}
