package faultbed.faults;

import faultbed.faults.remote.Become;
import faultbed.faults.remote.SshTarget;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;

/**
 * A host for tests of the remote backend: a real OpenSSH sshd in a node's network namespace, at
 * the node's own address, with a host key of its own and one authorized client key, run in a
 * faultbed cgroup recorded in the ledger so nothing outlives a killed test JVM. faultbed's code
 * reaches it only over SSH, as it would a machine of a user's cluster.
 */
public final class SshdHost implements AutoCloseable {
  public static final Path SSHD = Path.of("/usr/sbin/sshd");

  private final NodeNetwork.NodeNamespace node;
  private final Cgroup group;
  private final Path knownHosts;

  private SshdHost(NodeNetwork.NodeNamespace node, Cgroup group, Path knownHosts) {
    this.node = node;
    this.group = group;
    this.knownHosts = knownHosts;
  }

  /** Empty when sshd hosts can be made here; otherwise what is missing, one line each. */
  public static List<String> problems() {
    List<String> p = new ArrayList<>(NodeNetwork.problems());
    if (!Files.isExecutable(SSHD)) {
      p.add(SSHD + " is missing: install the Debian package 'openssh-server' (ci/test does, as root)");
    }
    if (!Shell.exists("ssh-keygen")) {
      p.add("ssh-keygen is missing: install the Debian package 'openssh-client'");
    }
    return p;
  }

  /** A fresh Ed25519 key pair at {@code file} and {@code file}.pub, as ssh-keygen writes them. */
  public static Path keyPair(Path file) {
    Shell.check(List.of("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "faultbed-test", "-f", file.toString()));
    return file;
  }

  /** sshd on port 22 of {@code node}, letting in {@code clientKey}'s holder as root; answering when returned. */
  public static SshdHost start(Ledger ledger, NodeNetwork.NodeNamespace node, Path dir, Path clientKey) {
    return start(ledger, node, dir, clientKey, NodeNetwork.inside(node, List.of()));
  }

  /**
   * The same, started with {@code enter} before its command: how a command gets onto the host
   * (into the node's network namespace, and perhaps a process space of its own).
   */
  public static SshdHost start(Ledger ledger, NodeNetwork.NodeNamespace node, Path dir, Path clientKey,
      List<String> enter) {
    try {
      Files.createDirectories(dir);
      // a host started again (rebooted) keeps its keys, so clients still know it
      Path hostKey = Files.exists(dir.resolve("host_key")) ? dir.resolve("host_key") : keyPair(dir.resolve("host_key"));
      Path authorized = Files.copy(Path.of(clientKey + ".pub"), dir.resolve("authorized_keys"),
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      Path config = Files.writeString(dir.resolve("sshd_config"), String.join("\n",
          "Port 22",
          "ListenAddress " + node.address(),
          "HostKey " + hostKey,
          "AuthorizedKeysFile " + authorized,
          "PidFile " + dir.resolve("sshd.pid"),
          "StrictModes no", // the test's folders are not root-only
          "UsePAM no",
          "PermitRootLogin prohibit-password",
          "PasswordAuthentication no",
          "KbdInteractiveAuthentication no",
          "") + "\n");
      String[] pub = Files.readString(Path.of(hostKey + ".pub")).strip().split(" ");
      Path knownHosts = Files.writeString(dir.resolve("known_hosts"), node.address() + " " + pub[0] + " " + pub[1] + "\n");
      Files.createDirectories(Path.of("/run/sshd")); // sshd's privilege separation folder (Debian makes it at boot)
      Cgroup group = Cgroup.of(ledger.owner() + "/sshd-" + node.index()).create();
      ledger.record(LedgerEntry.cgroup(group, "sshd"));
      List<String> command = new ArrayList<>(enter);
      // A machine of the user's cluster has start-up files of its own; this one would otherwise run
      // the test machine's root .bashrc before every command (bash does for commands over SSH), and
      // what it runs (a version manager's rehash behind a lock, say) can hold each for a minute. In a
      // mount namespace of sshd's that file reads empty; the rest of root's home stays (the hosts'
      // Hadoop runs from the test's classpath there).
      command.addAll(List.of("unshare", "--mount", "--propagation", "private", "--", "sh", "-c",
          "if [ -f /root/.bashrc ]; then mount --bind /dev/null /root/.bashrc; fi && exec \"$@\"", "sshd"));
      command.addAll(List.of(SSHD.toString(), "-D", "-e", "-f", config.toString()));
      group.spawn(command);
      Awaitility.await("sshd of " + node.name()).atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
          .ignoreExceptions().until(() -> {
            try (Socket s = new Socket()) {
              s.connect(new InetSocketAddress(node.address(), 22), 1000);
              return true;
            }
          });
      return new SshdHost(node, group, knownHosts);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** How faultbed reaches this host as root with {@code key}. */
  public SshTarget target(String name, Path key) {
    return new SshTarget(name, node.address(), 22, "root", key, knownHosts, new Become.Root());
  }

  public Path knownHosts() {
    return knownHosts;
  }

  public NodeNetwork.NodeNamespace node() {
    return node;
  }

  @Override
  public void close() {
    group.destroy();
  }
}
