package faultbed.faults.remote;

/**
 * How a command that needs root gets it on a remote host. Every such command is a verb of
 * faultbed's host helper ({@code faultbed-host}, {@link RemoteHost#HELPER}): sent on standard input
 * to a shell when the login is root or may sudo anything, or run where it is installed root-owned,
 * with a sudo rule for it alone and for the inventory's NodeManager start command, so that the
 * login has no general root shell.
 */
public sealed interface Become {
  /** The login user is root: the helper runs as {@code sh -s -- VERB ...}. */
  record Root() implements Become {}

  /** {@code sudo -n} (never a password prompt) for anything: {@code sudo -n -- sh -s -- VERB ...}. */
  record Sudo() implements Become {}

  /**
   * {@code sudo -n} of the helper installed at {@code path} ({@code sudo -n -- PATH VERB ...}) and
   * of the NodeManager start command, nothing else.
   */
  record Helper(String path) implements Become {
    public Helper {
      if (!path.startsWith("/")) {
        throw new IllegalArgumentException("the helper's path: expected an absolute path, got " + path);
      }
    }
  }
}
