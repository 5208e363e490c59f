package faultbed.faults.remote;

import java.util.Set;

/**
 * How a command that needs root gets it on a remote host: the login is root, or {@code sudo -n}
 * (never a password prompt) for every program or only for those the inventory lists.
 */
public sealed interface Become {
  /** The login user is root: commands run as they are. */
  record Root() implements Become {}

  /**
   * {@code sudo -n} for the programs listed (by name, such as {@code iptables}, or full path), or
   * for every program when the list is empty.
   */
  record Sudo(Set<String> programs) implements Become {
    public Sudo {
      programs = Set.copyOf(programs);
    }

    /** Whether sudo may run {@code program} (the first word of a command). */
    public boolean allows(String program) {
      if (programs.isEmpty()) {
        return true;
      }
      String name = program.substring(program.lastIndexOf('/') + 1);
      return programs.contains(program) || programs.contains(name);
    }
  }
}
