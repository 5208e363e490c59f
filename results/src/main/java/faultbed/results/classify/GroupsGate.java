package faultbed.results.classify;

import com.fasterxml.jackson.core.JsonProcessingException;
import faultbed.results.RecordStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A reproduction's regression gate. The committed baseline says which Dinu-Ng groups a suite found;
 * a new suite fails the gate when it finds fewer, or when a run of a variant whose crashes must wait
 * for node expiry (RST suppressed: nothing tells the reducers the node is gone) lost map outputs and
 * had them re-run any other way.
 *
 * <pre>
 * { "format": "faultbed-groups/1", "source": "dinu-ng-quick",
 *   "groups": { "G1": 2, "G5": 1, "G6": 3, "G7": 2 }, "expiryBound": ["crash-no-rst"] }
 * </pre>
 */
public record GroupsGate(String format, String source, Map<String, Integer> groups, List<String> expiryBound) {
  public static final String FORMAT = "faultbed-groups/1";

  public GroupsGate {
    groups = new TreeMap<>(groups == null ? Map.of() : groups);
    expiryBound = List.copyOf(expiryBound == null ? List.of() : expiryBound);
  }

  /** The groups the node-failure runs of a suite fell into. */
  public static GroupsGate of(String source, List<Classification> runs, List<String> expiryBound) {
    Map<String, Integer> groups = new TreeMap<>();
    for (Classification c : runs) {
      if (c.group().isNodeFailure()) {
        groups.merge(c.group().label(), 1, Integer::sum);
      }
    }
    return new GroupsGate(FORMAT, source, groups, expiryBound);
  }

  public static GroupsGate read(Path file) {
    if (!java.nio.file.Files.isRegularFile(file)) {
      throw new IllegalArgumentException("expected a " + FORMAT + " file, got " + file + " (no such file)");
    }
    try {
      GroupsGate g = RecordStore.json().readValue(file.toFile(), GroupsGate.class);
      if (!FORMAT.equals(g.format())) {
        throw new IllegalArgumentException("expected format " + FORMAT + ", got " + g.format());
      }
      return g;
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("expected a " + FORMAT + " file: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public void write(Path file) {
    try {
      Files.writeString(file, RecordStore.json().writeValueAsString(this) + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Why {@code runs} fail this gate; empty when they pass. */
  public List<String> violations(List<Classification> runs) {
    List<String> out = new ArrayList<>();
    Set<String> found = new TreeSet<>(of("", runs, List.of()).groups().keySet());
    if (found.size() < groups.size()) {
      Set<String> missing = new TreeSet<>(groups.keySet());
      missing.removeAll(found);
      out.add("found " + found.size() + " groups " + found + ", the baseline " + groups.size() + " "
          + groups.keySet() + "; missing " + missing);
    }
    // Only finished map outputs need the node declared dead (or reported) before they are re-run;
    // running attempts that stop reporting are backed up by speculation, RST or not.
    for (String variant : expiryBound) {
      List<Classification> lost = runs.stream().filter(c -> c.variant().equals(variant)
          && c.group().isNodeFailure() && c.mechanisms().contains(Mechanism.MAP_OUTPUTS_LOST)).toList();
      if (lost.isEmpty()) {
        out.add(variant + ": no run lost map outputs, so nothing shows whether recovery waited for node expiry");
      }
      for (Classification c : lost) {
        if (c.recovery() != Recovery.NODE_EXPIRY) {
          out.add(variant + ": " + c.runId() + " recovered by " + c.recovery().label()
              + ", not by node expiry, though its crash sent no RST");
        }
      }
    }
    return out;
  }
}
