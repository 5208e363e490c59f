package faultbed.results;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.Map;

/**
 * What a fault kind does to its node, as the analysis reads it. Each kind declares its effect
 * where it is described (the harness's {@code FaultKind}) and every record's fault carries it, so
 * a new kind is read rightly without a list of names here.
 *
 * @param stopsNode the ResourceManager and the node's peers lose it: it neither heartbeats nor
 *     serves (crash, stop, blackhole, freeze); the Dinu-Ng groups describe these
 * @param killsNode its processes die and it is back only once restarted (crash, stop); a node
 *     stopped without it comes back by itself when the fault is healed (freeze, blackhole)
 * @param slowsNode it goes on working, slower, while the fault holds (slow-node, cpu-hog, disk-load,
 *     freeze, bandwidth-cap, latency): the node speeds of speculation are measured under these
 */
public record FaultEffect(boolean stopsNode, boolean killsNode, boolean slowsNode) {
  public static final FaultEffect NONE = new FaultEffect(false, false, false);
  public static final FaultEffect KILLS = new FaultEffect(true, true, false);
  public static final FaultEffect CUTS_OFF = new FaultEffect(true, false, false);
  public static final FaultEffect STALLS = new FaultEffect(true, false, true);
  public static final FaultEffect SLOWS = new FaultEffect(false, false, true);

  /**
   * The effects of the kinds that existed before records carried them, so those records read as
   * they always did. Frozen: a kind added since writes its effect into every record.
   */
  private static final Map<String, FaultEffect> BEFORE_RECORDS_CARRIED_IT = Map.of(
      "crash", KILLS, "stop", KILLS, "blackhole", CUTS_OFF, "freeze", STALLS, "rst-suppression", NONE,
      "slow-node", SLOWS, "cpu-hog", SLOWS, "disk-load", SLOWS, "bandwidth-cap", SLOWS, "latency", SLOWS);

  public FaultEffect {
    if (killsNode && !stopsNode) {
      throw new IllegalArgumentException("a fault that kills a node stops it");
    }
  }

  /** The effect of {@code kind} in a record written before records carried it; none for a kind unknown then. */
  public static FaultEffect ofOldRecord(String kind) {
    return BEFORE_RECORDS_CARRIED_IT.getOrDefault(kind, NONE);
  }

  /** Stops the node without killing it: it is back by itself when healed (a freeze, a blackhole). */
  @JsonIgnore
  public boolean stallsNode() {
    return stopsNode && !killsNode;
  }
}
