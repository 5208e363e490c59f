package faultbed.faults;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Processes stopped where they stand (SIGSTOP) until healed (SIGCONT): a JVM stalled as a long
 * pause stalls it, its threads, timers and sockets all held. Each process goes into the ledger
 * before its signal, with its start time, so a heal after the harness died continues exactly that
 * process and never one that reused its pid. Works wherever the ledger's commands run: this
 * machine or a remote host (whose helper reads /proc/PID/stat and sends SIGCONT to any process).
 */
public final class StoppedProcesses {
  private StoppedProcesses() {}

  /** Stops {@code pids} (those still alive) on the ledger's machine; healed by SIGCONT to each, once. */
  public static Installed stop(Ledger ledger, String runId, Collection<Long> pids) {
    Commands on = ledger.commands();
    List<LedgerEntry> entries = new ArrayList<>();
    List<String> stop = new ArrayList<>(List.of("kill", "-STOP"));
    for (long pid : pids) {
      Stat stat = Stat.of(on, pid);
      if (stat == null) {
        continue; // ended before it could be stopped: nothing to stall
      }
      LedgerEntry e = new LedgerEntry(Continue.KIND, "process " + pid + " stopped (" + runId + ")", runId,
          Map.of("pid", Long.toString(pid), "start", stat.start()));
      ledger.record(e);
      entries.add(e);
      stop.add(Long.toString(pid));
    }
    if (entries.isEmpty()) {
      return () -> { };
    }
    on.act(stop); // one that ended meanwhile makes kill say so; the others are stopped
    return () -> {
      RuntimeException first = null;
      for (LedgerEntry e : entries) {
        try {
          ledger.heal(e);
        } catch (RuntimeException ex) {
          first = first == null ? ex : first;
        }
      }
      if (first != null) {
        throw first;
      }
    };
  }

  /** Whether {@code pid} is stopped now (state T); false once it is gone. */
  public static boolean isStopped(Commands on, long pid) {
    Stat s = Stat.of(on, pid);
    return s != null && s.state() == 'T';
  }

  /** A process's state and start time (clock ticks since boot), from /proc/PID/stat. */
  record Stat(char state, String start) {
    static Stat of(Commands on, long pid) {
      Commands.Result r = on.inspect(List.of("cat", "/proc/" + pid + "/stat"));
      if (!r.ok()) {
        return null;
      }
      String stat = r.out().strip();
      int close = stat.lastIndexOf(')'); // the command name may hold spaces and parentheses
      if (close < 0 || stat.length() < close + 3) {
        return null;
      }
      String[] after = stat.substring(close + 2).split(" ");
      return after.length > 19 ? new Stat(after[0].charAt(0), after[19]) : null; // fields 3 and 22
    }
  }

  /** SIGCONT to a process faultbed stopped, if that same process (by its start time) still lives. */
  static final class Continue implements Healer.Anywhere {
    static final String KIND = "stopped-process";

    @Override
    public String kind() {
      return KIND;
    }

    @Override
    public String heal(LedgerEntry entry, Commands on) {
      long pid = Long.parseLong(entry.detail().get("pid"));
      Stat now = Stat.of(on, pid);
      if (now == null || !now.start().equals(entry.detail().get("start"))) {
        return null; // ended (a kill may end a stopped process), or the pid is another process's now
      }
      Commands.Result r = on.act(List.of("kill", "-CONT", Long.toString(pid)));
      if (!r.ok()) {
        if (Stat.of(on, pid) == null) {
          return null; // ended between the look and the signal
        }
        throw new IllegalStateException(on.where() + ": kill -CONT " + pid + " failed (" + r.code() + "): " + r.said());
      }
      return "continued process " + pid + " (stopped by " + entry.runId() + ")";
    }
  }
}
