package faultbed.faults;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A thing one command undoes (a stopped process, a NodeManager to start again, load processes and
 * their files on a host), written down before it is made: what it is, an inspection that succeeds
 * while it is still there (and prints {@code present} then, if given), and the command that undoes
 * it. Healing twice, or after a half-finished heal, undoes nothing twice.
 */
public final class Undo implements Healer.Anywhere {
  public static final String KIND = "undo";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<List<String>> ARGV = new TypeReference<>() {};

  /** {@code undo} runs while {@code check} (null: always) succeeds and prints {@code present} (null: anything). */
  public static LedgerEntry entry(String what, String runId, List<String> check, String present, List<String> undo) {
    Map<String, String> detail = new HashMap<>();
    detail.put("undo", json(undo));
    if (check != null) {
      detail.put("check", json(check));
    }
    if (present != null) {
      detail.put("present", present);
    }
    return new LedgerEntry(KIND, what, runId, detail);
  }

  /**
   * {@link #entry} whose undo runs as the login, not as root (on a remote host: a command that
   * itself asks sudo for exactly what the host's rule allows).
   */
  public static LedgerEntry entryAsLogin(String what, String runId, List<String> check, List<String> undo) {
    LedgerEntry e = entry(what, runId, check, null, undo);
    Map<String, String> detail = new HashMap<>(e.detail());
    detail.put("as", "login");
    return new LedgerEntry(KIND, what, runId, detail);
  }

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public String heal(LedgerEntry entry, Commands on) {
    String check = entry.detail().get("check");
    if (check != null) {
      Commands.Result c = on.inspect(argv(check));
      String present = entry.detail().get("present");
      if (!c.ok() || present != null && !c.out().contains(present)) {
        return null; // gone already: healed before, or never made
      }
    }
    List<String> undo = argv(entry.detail().get("undo"));
    Commands.Result r = "login".equals(entry.detail().get("as")) ? on.actAsLogin(undo) : on.act(undo);
    if (!r.ok()) {
      throw new IllegalStateException(on.where() + ": undoing " + entry.id() + " failed (" + r.code() + "): "
          + r.said());
    }
    return "undid " + entry.id();
  }

  static String json(List<String> argv) {
    try {
      return JSON.writeValueAsString(argv);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  static List<String> argv(String json) {
    try {
      return JSON.readValue(json, ARGV);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a ledger entry's command is not a list of words: " + json, e);
    }
  }
}
