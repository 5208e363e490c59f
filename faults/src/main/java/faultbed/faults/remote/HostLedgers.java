package faultbed.faults.remote;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import faultbed.faults.Commands;
import faultbed.faults.Ledger;
import faultbed.faults.LedgerEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Harnesses' ledgers for a remote host, kept on that host: a file per harness in the login's home
 * ({@code ~/}{@value #DIR}{@code /<owner>.ledger}, written without root), one entry per line,
 * appended before the thing it names is made (one SSH command). The ledger itself is faultbed's
 * one {@link Ledger}, its healers running their commands on the host; only where the entries are
 * kept is remote. A harness heals its own entries when a fault ends and at its stop; the next
 * harness to reach the host heals the files of harnesses that are gone, so a SIGKILLed harness
 * leaves nothing for long.
 */
public final class HostLedgers {
  /** Where ledgers live on a remote host, under the login's home. */
  public static final String DIR = ".faultbed/remote-ledger";
  private static final ObjectMapper JSON = new ObjectMapper();

  private HostLedgers() {}

  /** {@code owner}'s ledger on the host, empty: its things are made from now on. */
  public static Ledger open(RemoteHost host, String owner) {
    return Ledger.kept(owner, host, new File(host, owner), List.of());
  }

  /**
   * Heals what harnesses that are not live left on the host: every ledger file whose owner is not
   * in {@code liveOwners}, newest entry first. One line per thing undone.
   */
  public static List<String> healOrphans(RemoteHost host, Set<String> liveOwners) {
    Commands.Result ls = host.probe(inHome("ls -1 \"$1\" 2>/dev/null || true", DIR));
    List<String> lines = new ArrayList<>();
    for (String name : ls.out().split("\n")) {
      if (!name.endsWith(".ledger")) {
        continue;
      }
      String owner = name.substring(0, name.length() - ".ledger".length());
      if (!liveOwners.contains(owner) && owner.matches("[A-Za-z0-9_.-]+")) {
        Ledger left = Ledger.kept(owner, host, new File(host, owner), read(host, owner));
        left.healAll().forEach(l -> lines.add(l + " (left by " + owner + ")"));
        left.close();
      }
    }
    return lines;
  }

  /** What a file holds; a line cut short by a harness killed mid-write names nothing made yet. */
  private static List<LedgerEntry> read(RemoteHost host, String owner) {
    Commands.Result r = host.probe(inHome("cat \"$1\" 2>/dev/null || true", file(owner)));
    List<LedgerEntry> out = new ArrayList<>();
    for (String line : r.out().split("\n")) {
      if (!line.isBlank()) {
        try {
          out.add(JSON.readValue(line, LedgerEntry.class));
        } catch (JsonProcessingException cutShort) {
          // nothing was made after it
        }
      }
    }
    return out;
  }

  private static String file(String owner) {
    return DIR + "/" + owner + ".ledger";
  }

  /** A shell line run with $1 the ledger folder under the login's home. */
  private static List<String> inHome(String script, String... args) {
    List<String> argv = new ArrayList<>(List.of("sh", "-c", "cd \"$HOME\" && " + script, "faultbed-ledger"));
    argv.addAll(List.of(args));
    return argv;
  }

  /** One harness's file on the host: appended to, never rewritten (healing an entry twice does nothing). */
  private record File(RemoteHost host, String owner) implements Ledger.Store {
    File {
      if (!owner.matches("[A-Za-z0-9_.-]+")) {
        throw new IllegalArgumentException("ledger owner: expected letters, digits, '.', '_' or '-', got " + owner);
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
          file(owner)));
      if (!r.ok()) {
        throw new IllegalStateException(host.where() + ": cannot write its ledger ~/" + file(owner) + ": " + r.said());
      }
    }

    @Override
    public void healed(List<LedgerEntry> all) {
      // the line stays: its healer finds the thing gone if it is read again
    }

    @Override
    public void delete() {
      host.actAsLogin(inHome("rm -f \"$1\"", file(owner)));
    }
  }
}
