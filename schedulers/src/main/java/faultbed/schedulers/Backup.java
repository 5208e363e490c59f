package faultbed.schedulers;

import java.util.Map;

/**
 * A decision to back up one task, with the rule that fired in words and the numbers it used
 * (progress, rates, thresholds), so the decision log can be checked against the seed by hand.
 */
public record Backup(String taskId, String reason, Map<String, Double> evidence) {
  public Backup {
    evidence = Map.copyOf(evidence == null ? Map.of() : evidence);
  }

  public static Backup of(String taskId, String reason) {
    return new Backup(taskId, reason, Map.of());
  }
}
