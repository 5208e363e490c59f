package faultbed.faults;

import java.util.ArrayList;
import java.util.List;

/**
 * Where faultbed's OS commands run: this machine, a network namespace of it, or a remote host over
 * SSH (as Jepsen's control layer). The mechanisms (packet filter rules, traffic shaping, undo
 * commands, the ledger's healing) are written once against it. Commands are argument lists run
 * as root; an <em>inspection</em> only reads the host and runs even in a dry run, an
 * <em>action</em> changes it and in a dry run is written down instead.
 */
public interface Commands {
  /** What a command did: its exit code and what it printed (on this machine both streams are in {@code out}). */
  record Result(int code, String out, String err) {
    public boolean ok() {
      return code == 0;
    }

    /** What the command said about its failure: its error stream, or its output when that is empty. */
    public String said() {
      return (err.isBlank() ? out : err).strip();
    }
  }

  /** A command that only reads the host (iptables -S, tc qdisc show), as root. */
  Result inspect(List<String> argv);

  /** A command that changes the host, as root. */
  Result act(List<String> argv);

  /**
   * A command that changes the host and needs no root: as the login on a remote host (which may
   * itself sudo exactly what its rule allows); here, as everything, as root.
   */
  default Result actAsLogin(List<String> argv) {
    return act(argv);
  }

  /** Where the commands run, for messages: "this machine", "host w1 (root@198.18.0.2:22)". */
  String where();

  /** {@link #act} that fails, with what the command printed, unless it exits 0; returns its output. */
  default String check(List<String> argv) {
    Result r = act(argv);
    if (!r.ok()) {
      throw new IllegalStateException(where() + ": " + String.join(" ", argv) + " failed (" + r.code() + "): "
          + r.said());
    }
    return r.out();
  }

  /** This machine's own commands. */
  static Commands local() {
    return Local.INSTANCE;
  }

  /**
   * These commands run under {@code prefix} (such as {@code ip netns exec NS} or {@code nsenter -t
   * PID -n}), described as {@code where}.
   */
  default Commands within(String where, List<String> prefix) {
    Commands outer = this;
    return new Commands() {
      @Override
      public Result inspect(List<String> argv) {
        return outer.inspect(prefixed(argv));
      }

      @Override
      public Result act(List<String> argv) {
        return outer.act(prefixed(argv));
      }

      @Override
      public String where() {
        return where;
      }

      private List<String> prefixed(List<String> argv) {
        List<String> all = new ArrayList<>(prefix);
        all.addAll(argv);
        return all;
      }
    };
  }

  /** This machine: a process per command. */
  final class Local implements Commands {
    private static final Local INSTANCE = new Local();

    private Local() {}

    @Override
    public Result inspect(List<String> argv) {
      return act(argv);
    }

    @Override
    public Result act(List<String> argv) {
      Shell.Result r = Shell.run(argv);
      return new Result(r.code(), r.out(), "");
    }

    @Override
    public String where() {
      return "this machine";
    }
  }
}
