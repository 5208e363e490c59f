package faultbed.faults.remote;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import faultbed.faults.Commands;
import faultbed.faults.Ledger;
import faultbed.faults.LedgerEntry;
import faultbed.faults.Undo;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Harnesses' ledgers for a remote host, kept on that host: a file per harness in the login's home
 * ({@code ~/}{@value #DIR}{@code /<owner>@<machine>.ledger}, written without root), one entry per line,
 * appended before the thing it names is made (one SSH command). The ledger itself is faultbed's
 * one {@link Ledger}, its healers running their commands on the host; only where the entries are
 * kept is remote. A harness heals its own entries when a fault ends and at its stop; the next
 * harness to reach the host heals the files of harnesses that are gone, so a SIGKILLed harness
 * leaves nothing for long. A file's name says which machine's harness wrote it
 * ({@code <owner>@<machine>.ledger}): a harness of this machine is gone when its process is, one of
 * another machine when it has not renewed its file ({@link #renew}) for {@link #LEASE}, by the
 * host's own clock; so two harness machines against one cluster never heal each other's live faults.
 */
public final class HostLedgers {
  /** Where ledgers live on a remote host, under the login's home. */
  public static final String DIR = ".faultbed/remote-ledger";
  /** How long another machine's harness is live after it last renewed its file. */
  public static final java.time.Duration LEASE = java.time.Duration.ofMinutes(2);
  /** How often a live harness renews its files: well within the lease. */
  public static final java.time.Duration RENEWAL = java.time.Duration.ofSeconds(30);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String MACHINE = machine();

  private HostLedgers() {}

  /** {@code owner}'s ledger on the host, empty: its things are made from now on. */
  public static Ledger open(RemoteHost host, String owner) {
    return Ledger.kept(owner, host, new File(host, owner + "@" + MACHINE), List.of());
  }

  /**
   * Renews {@code owner}'s lease on the host (its file's time, an empty file if it has none yet): a
   * harness of another machine reaching the host leaves its entries alone while it is renewed.
   */
  public static void renew(RemoteHost host, String owner) {
    host.actAsLogin(inHome("mkdir -p \"$1\" && touch \"$2\"", DIR, file(owner + "@" + MACHINE)));
  }

  /**
   * Heals what harnesses that are not live left on the host: every ledger file whose owner is not
   * in {@code liveOwners}, newest entry first. One line per thing undone.
   */
  public static List<String> healOrphans(RemoteHost host, Set<String> liveOwners) {
    // the host's time first, then each file's time and name: a lease is judged by the host's clock
    Commands.Result ls = host.probe(inHome("date +%s; find \"$1\" -maxdepth 1 -name '*.ledger' -printf '%T@ %f\\n'"
        + " 2>/dev/null; true", DIR));
    List<String> lines = new ArrayList<>();
    List<String> out = ls.out().lines().toList();
    if (out.isEmpty()) {
      return lines;
    }
    double now = Double.parseDouble(out.get(0).strip());
    for (String line : out.subList(1, out.size())) {
      String[] timeAndName = line.strip().split(" ", 2);
      if (timeAndName.length < 2 || !timeAndName[1].endsWith(".ledger")) {
        continue;
      }
      String name = timeAndName[1].substring(0, timeAndName[1].length() - ".ledger".length());
      if (!name.matches("[A-Za-z0-9_.@-]+")) {
        continue;
      }
      String owner = name.contains("@") ? name.substring(0, name.indexOf('@')) : name;
      String machine = name.contains("@") ? name.substring(name.indexOf('@') + 1) : MACHINE;
      boolean live = machine.equals(MACHINE) ? liveOwners.contains(owner)
          : now - Double.parseDouble(timeAndName[0]) < LEASE.toSeconds();
      if (!live) {
        Ledger left = Ledger.kept(owner, host, new File(host, name), read(host, name));
        left.healAll().forEach(l -> lines.add(l + " (left by " + owner + (machine.equals(MACHINE) ? "" : " of " + machine)
            + ")"));
        left.close();
      }
    }
    return lines;
  }

  /** This machine, as harness ledgers on remote hosts name it: its machine id, or its host name. */
  private static String machine() {
    try {
      String id = java.nio.file.Files.readString(java.nio.file.Path.of("/etc/machine-id")).strip();
      if (id.matches("[0-9a-f]{12,}")) {
        return id.substring(0, 12);
      }
    } catch (java.io.IOException | RuntimeException none) {
      // no machine id: the host name says it
    }
    String host = System.getenv().getOrDefault("HOSTNAME", "");
    if (host.isBlank()) {
      try {
        host = java.net.InetAddress.getLocalHost().getHostName();
      } catch (java.io.IOException e) {
        host = "unknown";
      }
    }
    return host.replaceAll("[^A-Za-z0-9_.-]", "-");
  }

  /** What a file holds; a line cut short by a harness killed mid-write names nothing made yet. */
  private static List<LedgerEntry> read(RemoteHost host, String name) {
    Commands.Result r = host.probe(inHome("cat \"$1\" 2>/dev/null || true", file(name)));
    List<LedgerEntry> out = new ArrayList<>();
    for (String line : r.out().split("\n")) {
      if (!line.isBlank()) {
        try {
          out.add(entry(JSON.readTree(line)));
        } catch (JsonProcessingException | IllegalArgumentException cutShort) {
          // nothing was made after it
        }
      }
    }
    return out;
  }

  /** The file of a ledger named {@code <owner>@<machine>} (or, as before machines were named, {@code <owner>}). */
  /**
   * One line's entry. A line written before 2026-11-29 is a command to undo ({@code what},
   * {@code check}, {@code present}, {@code undo}): read as the {@link Undo} it is.
   */
  private static LedgerEntry entry(com.fasterxml.jackson.databind.JsonNode line) throws JsonProcessingException {
    if (!line.has("undo")) {
      return JSON.treeToValue(line, LedgerEntry.class);
    }
    List<String> check = line.hasNonNull("check") ? JSON.convertValue(line.get("check"), ARGV) : null;
    return Undo.entry(line.path("what").asText(), "unknown", check,
        line.hasNonNull("present") ? line.get("present").asText() : null, JSON.convertValue(line.get("undo"), ARGV));
  }

  private static final com.fasterxml.jackson.core.type.TypeReference<List<String>> ARGV =
      new com.fasterxml.jackson.core.type.TypeReference<>() {};

  private static String file(String name) {
    return DIR + "/" + name + ".ledger";
  }

  /** A shell line run with $1 the ledger folder under the login's home. */
  private static List<String> inHome(String script, String... args) {
    List<String> argv = new ArrayList<>(List.of("sh", "-c", "cd \"$HOME\" && " + script, "faultbed-ledger"));
    argv.addAll(List.of(args));
    return argv;
  }

  /** One harness's file on the host: appended to, never rewritten (healing an entry twice does nothing). */
  private record File(RemoteHost host, String name) implements Ledger.Store {
    File {
      if (!name.matches("[A-Za-z0-9_.-]+(@[A-Za-z0-9_.-]+)?")) {
        throw new IllegalArgumentException("ledger owner: expected letters, digits, '.', '_' or '-', got " + name);
      }
    }

    @Override
    public void added(LedgerEntry added, List<LedgerEntry> all) {
      String line;
      try {
        line = JSON.writeValueAsString(added);
      } catch (JsonProcessingException e) {
        throw new IllegalStateException(e);
      }
      Commands.Result r = host.actAsLogin(inHome("mkdir -p \"$1\" && printf '%s\\n' \"$2\" >> \"$3\"", DIR, line,
          file(name)));
      if (!r.ok()) {
        throw new IllegalStateException(host.where() + ": cannot write its ledger ~/" + file(name) + ": " + r.said());
      }
    }

    @Override
    public void healed(List<LedgerEntry> all) {
      // the line stays: its healer finds the thing gone if it is read again
    }

    @Override
    public void delete() {
      host.actAsLogin(inHome("rm -f \"$1\"", file(name)));
    }
  }
}
