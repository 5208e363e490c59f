package faultbed.schedulers;

import java.nio.file.Path;
import java.util.Map;

/**
 * What a policy is configured with inside the AM.
 *
 * @param timeScale multiplies every time constant of the seeds (0.1 turns LATE's 60 s into 6 s), so a
 *                  compressed run keeps the policy's proportions
 * @param slots     containers the cluster can run at once (LATE's and SAMR's caps are fractions of it)
 * @param params    the policy's own parameters by name, as given in the scenario (e.g. "slowTaskThreshold")
 * @param stateDir  a directory the policy may keep state in across jobs (SAMR's per-node history), or null
 */
public record PolicySettings(double timeScale, int slots, Map<String, String> params, Path stateDir) {

  public PolicySettings {
    if (!(timeScale > 0)) {
      throw new IllegalArgumentException("timeScale: expected a positive number, got " + timeScale);
    }
    if (slots < 1) {
      throw new IllegalArgumentException("slots: expected at least 1, got " + slots);
    }
    params = Map.copyOf(params == null ? Map.of() : params);
  }

  public static PolicySettings defaults() {
    return new PolicySettings(1.0, 8, Map.of(), null);
  }

  public double number(String key, double defaultValue) {
    String v = params.get(key);
    if (v == null) {
      return defaultValue;
    }
    try {
      return Double.parseDouble(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + ": expected a number, got \"" + v + "\"");
    }
  }

  /**
   * A time constant in milliseconds: the parameter (in seconds) if given, else the seed's default;
   * either way multiplied by the time scale.
   */
  public long millis(String key, double defaultSeconds) {
    return Math.round(number(key, defaultSeconds) * timeScale * 1000.0);
  }
}
