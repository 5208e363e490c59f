package faultbed.harness;

import faultbed.schedulers.policies.Policies;
import faultbed.schedulers.yarn.PolicySpeculator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which speculator a run's ApplicationMaster uses. Job-level, so variants that differ only by
 * speculator share one cluster.
 *
 * <ul>
 *   <li>{@link #off()}: no speculation (faultbed's default, so fault runs are not muddied by backups);
 *   <li>{@link #hadoop3(String)}: Hadoop's DefaultSpeculator with one of its shipped estimators
 *       ("legacy", "exponential", "simple-exponential") or an estimator class name;
 *   <li>{@link #policy(String, Map)}: a {@code SpeculationPolicy} ("hadoop-0.21", "late", "late-history", "samr",
 *       "base" or a class name) run by {@link PolicySpeculator};
 *   <li>{@link #speculator(String)}: the user's own {@code Speculator} class.
 * </ul>
 *
 * @param kind      "off", "hadoop3", "policy" or "speculator"
 * @param name      estimator (hadoop3), policy (policy) or class name (speculator); null for off
 * @param params    policy parameters by name (seed defaults when absent)
 */
public record Speculation(String kind, String name, Map<String, String> params) {

  static final Map<String, String> ESTIMATORS = Map.of(
      "legacy", "org.apache.hadoop.mapreduce.v2.app.speculate.LegacyTaskRuntimeEstimator",
      "exponential", "org.apache.hadoop.mapreduce.v2.app.speculate.ExponentiallySmoothedTaskRuntimeEstimator",
      "simple-exponential", "org.apache.hadoop.mapreduce.v2.app.speculate.SimpleExponentialTaskRuntimeEstimator");

  private static final String DEFAULT_SPECULATOR = "org.apache.hadoop.mapreduce.v2.app.speculate.DefaultSpeculator";

  public Speculation {
    params = Map.copyOf(params == null ? Map.of() : params);
    switch (kind) {
      case "off" -> { }
      case "hadoop3" -> {
        if (!ESTIMATORS.containsKey(name)) {
          requireClass(name, org.apache.hadoop.mapreduce.v2.app.speculate.TaskRuntimeEstimator.class,
              "an estimator (" + String.join(", ", new java.util.TreeSet<>(ESTIMATORS.keySet())) + ")");
        }
      }
      case "speculator" -> requireClass(name, org.apache.hadoop.mapreduce.v2.app.speculate.Speculator.class,
          "a Speculator");
      case "policy" -> {
        Policies.create(name); // rejects unknown names with the list of known ones
        if (Policies.names().contains(name)) {
          checkParams(name, params);
        }
      }
      default -> throw new IllegalArgumentException(
          "speculation: expected off, hadoop3, policy or speculator, got \"" + kind + "\"");
    }
  }

  /**
   * Fails at validation, not inside the AM, when a built-in policy's parameter is one it does not
   * read (a typo) or not a number. A policy reads its parameters when configured, and each of the
   * built-ins' parameters is a number: a key it reads fails configuration when its value is not one.
   */
  private static void checkParams(String policy, Map<String, String> params) {
    try {
      Policies.create(policy).configure(new faultbed.schedulers.PolicySettings(1.0, 1, params, null));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("params." + e.getMessage(), e);
    }
    for (String key : params.keySet()) {
      Map<String, String> probe = new java.util.HashMap<>(params);
      probe.put(key, "not a number");
      try {
        Policies.create(policy).configure(new faultbed.schedulers.PolicySettings(1.0, 1, probe, null));
      } catch (IllegalArgumentException read) {
        continue;
      }
      throw new IllegalArgumentException("params." + key + ": \"" + policy + "\" has no such parameter; expected one"
          + " the policy reads (docs/schedulers.md lists them)");
    }
  }

  /** Fails at validation, not inside the AM, when a class cannot be the thing it is named as. */
  private static void requireClass(String className, Class<?> type, String what) {
    if (className == null || className.isBlank()) {
      throw new IllegalArgumentException("expected " + what + " or a class name, got nothing");
    }
    Class<?> c;
    try {
      // the context loader holds the user's --classpath jars, when given
      ClassLoader loader = Thread.currentThread().getContextClassLoader();
      c = Class.forName(className.trim(), false, loader != null ? loader : Speculation.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      throw new IllegalArgumentException("expected " + what + " or a class on the classpath, got \""
          + className + "\" (not found)");
    }
    if (!type.isAssignableFrom(c)) {
      throw new IllegalArgumentException("expected a class implementing " + type.getName() + ", got " + className);
    }
  }

  public static Speculation off() {
    return new Speculation("off", null, Map.of());
  }

  public static Speculation hadoop3(String estimator) {
    return new Speculation("hadoop3", estimator, Map.of());
  }

  public static Speculation policy(String nameOrClass) {
    return new Speculation("policy", nameOrClass, Map.of());
  }

  public static Speculation policy(String nameOrClass, Map<String, String> params) {
    return new Speculation("policy", nameOrClass, params);
  }

  public static Speculation speculator(String className) {
    return new Speculation("speculator", className, Map.of());
  }

  /** "off", "hadoop3/legacy", "late", or a class name: how records and reports name it. */
  public String describe() {
    return switch (kind) {
      case "off" -> "off";
      case "hadoop3" -> "hadoop3/" + name;
      default -> name;
    };
  }

  /**
   * The job settings that put this speculator in force, with the policy's time constants multiplied
   * by the cluster's time scale.
   *
   * @param stateDir where a policy may keep state across the runs of one cluster
   */
  public Map<String, String> jobSettings(ClusterSpec cluster, java.nio.file.Path stateDir) {
    Map<String, String> s = new LinkedHashMap<>();
    boolean on = !kind.equals("off");
    s.put("mapreduce.map.speculative", Boolean.toString(on));
    s.put("mapreduce.reduce.speculative", Boolean.toString(on));
    if (!on) {
      return s;
    }
    // Hadoop's own speculator intervals are scaled with the cluster's other timers (TimeCompression).
    s.put(PolicySpeculator.TIME_SCALE, Double.toString(cluster.timeScale()));
    switch (kind) {
      case "hadoop3" -> {
        s.put("yarn.app.mapreduce.am.job.speculator.class", DEFAULT_SPECULATOR);
        s.put("yarn.app.mapreduce.am.job.task.estimator.class", ESTIMATORS.getOrDefault(name, name));
      }
      case "speculator" -> s.put("yarn.app.mapreduce.am.job.speculator.class", name);
      default -> {
        s.put("yarn.app.mapreduce.am.job.speculator.class", PolicySpeculator.class.getName());
        s.put(PolicySpeculator.POLICY, name);
        s.put(PolicySpeculator.SLOTS, Integer.toString(cluster.slots()));
        if (stateDir != null) {
          s.put(PolicySpeculator.STATE_DIR, stateDir.toString());
        }
        params.forEach((k, v) -> s.put(PolicySpeculator.PARAM_PREFIX + k, v));
      }
    }
    return s;
  }
}
