package faultbed.faults.remote;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * What one harness installed on one remote host, kept on that host: a file per harness in the
 * login's home ({@code ~/}{@value #DIR}{@code /<owner>.ledger}, written without root), one line per
 * thing installed, each the command that undoes it, written before the thing is installed. A harness heals its own lines (newest first)
 * when a fault ends and on exit; the next harness to reach the host heals the files of harnesses
 * that are gone, so a SIGKILLed harness leaves nothing for long. An entry's check tells whether its
 * thing is still there, so healing twice, or after a half-finished heal, undoes nothing twice.
 */
public final class RemoteLedger {
  /** Where ledgers live on a remote host, under the login's home. */
  public static final String DIR = ".faultbed/remote-ledger";
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * One thing installed: what it is, for messages; a probe run as root that succeeds while the
   * thing is still there (null: always undo), and, if {@code present} is given, prints it then;
   * and the command, run as root, that undoes it.
   */
  public record Entry(String what, List<String> check, List<String> undo, String present) {
    public Entry {
      check = check == null ? null : List.copyOf(check);
      undo = List.copyOf(undo);
    }

    public Entry(String what, List<String> check, List<String> undo) {
      this(what, check, undo, null);
    }
  }

  private final RemoteHost host;
  private final String owner;

  public RemoteLedger(RemoteHost host, String owner) {
    if (!owner.matches("[A-Za-z0-9_.-]+")) {
      throw new IllegalArgumentException("ledger owner: expected letters, digits, '.', '_' or '-', got " + owner);
    }
    this.host = host;
    this.owner = owner;
  }

  private String file() {
    return file(owner);
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

  /**
   * Writes down how to undo {@code what} on the host, before it is installed: {@code undo} runs
   * while {@code check} succeeds (or always, when it is null).
   */
  public void record(String what, List<String> check, List<String> undo) {
    record(new Entry(what, check, undo));
  }

  /**
   * {@link #record(String, List, List)} for things a probe lists rather than tests (a qdisc):
   * {@code undo} runs while {@code check}'s output holds {@code present}.
   */
  public void record(String what, List<String> check, String present, List<String> undo) {
    record(new Entry(what, check, undo, present));
  }

  private void record(Entry entry) {
    String line;
    try {
      line = JSON.writeValueAsString(entry);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
    RemoteHost.Result r = host.actAsLogin(inHome("mkdir -p \"$1\" && printf '%s\\n' \"$2\" >> \"$3\"", DIR, line,
        file()));
    if (!r.ok()) {
      throw new IllegalStateException("host " + host.target().name() + ": cannot write its ledger ~/" + file() + ": "
          + r.err().strip());
    }
  }

  /** This harness's entries on the host, oldest first. */
  public List<Entry> entries() {
    return read(host, file());
  }

  /**
   * Undoes every entry of this harness (newest first), then removes its file; one line per thing
   * undone.
   */
  public List<String> healAll() {
    return heal(host, file());
  }

  /**
   * Undoes what harnesses that are not live left on the host: every ledger file whose owner is
   * not in {@code liveOwners}. One line per thing undone.
   */
  public static List<String> healOrphans(RemoteHost host, Set<String> liveOwners) {
    RemoteHost.Result ls = host.probe(inHome("ls -1 \"$1\" 2>/dev/null || true", DIR));
    List<String> lines = new ArrayList<>();
    for (String name : ls.out().split("\n")) {
      if (!name.endsWith(".ledger")) {
        continue;
      }
      String owner = name.substring(0, name.length() - ".ledger".length());
      if (!liveOwners.contains(owner) && owner.matches("[A-Za-z0-9_.-]+")) {
        heal(host, file(owner)).forEach(l -> lines.add(l + " (left by " + owner + ")"));
      }
    }
    return lines;
  }

  private static List<Entry> read(RemoteHost host, String file) {
    RemoteHost.Result r = host.probe(inHome("cat \"$1\" 2>/dev/null || true", file));
    List<Entry> out = new ArrayList<>();
    for (String line : r.out().split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      try {
        out.add(JSON.readValue(line, Entry.class));
      } catch (JsonProcessingException e) {
        // a line cut short by a harness killed mid-write undoes nothing: the thing was not installed yet
      }
    }
    return out;
  }

  private static List<String> heal(RemoteHost host, String file) {
    List<Entry> entries = read(host, file);
    Collections.reverse(entries);
    List<String> done = new ArrayList<>();
    RuntimeException first = null;
    for (Entry e : entries) {
      if (e.check() != null) {
        RemoteHost.Result c = host.probeAsRoot(e.check());
        if (!c.ok() || (e.present() != null && !c.out().contains(e.present()))) {
          continue; // gone already: healed before, or never made
        }
      }
      RemoteHost.Result r = host.act(e.undo());
      if (r.ok()) {
        done.add("host " + host.target().name() + ": undid " + e.what());
      } else if (first == null) {
        first = new IllegalStateException("host " + host.target().name() + ": undoing " + e.what() + " failed ("
            + r.code() + "): " + (r.err().isBlank() ? r.out() : r.err()).strip());
      }
    }
    if (first != null) {
      throw first; // the file stays, so the next start tries again
    }
    host.actAsLogin(inHome("rm -f \"$1\"", file));
    return done;
  }
}
