package faultbed.faults.remote;

import faultbed.faults.Commands;
import faultbed.faults.PreconditionFailed;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.channel.ChannelExec;
import org.apache.sshd.client.channel.ClientChannelEvent;
import org.apache.sshd.client.keyverifier.KnownHostsServerKeyVerifier;
import org.apache.sshd.client.keyverifier.RejectAllServerKeyVerifier;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.keyprovider.FileKeyPairProvider;

/**
 * A shell on one host of a cluster faultbed did not start, over SSH with Apache MINA SSHD's client
 * (no {@code ssh} program). Commands are argument lists, each word quoted for the remote shell.
 * There are two kinds: a <em>probe</em> only reads the host (which process is the NodeManager,
 * which rules exist) and runs even in a dry run; an <em>action</em> changes it (a rule, a qdisc, a
 * kill) and in a dry run is written down instead of run. Every call is bounded by the timeout.
 * The host key must already be in the target's known-hosts file: an unknown or changed key is
 * refused, as OpenSSH's strict checking does.
 */
public final class RemoteHost implements Commands, AutoCloseable {
  /** Every command run on a host, as run (with sudo where it needs root), how it ended and how long it took. */
  public static final org.slf4j.Logger COMMANDS = org.slf4j.LoggerFactory.getLogger("faultbed.hosts");

  /** The host helper's text: every command faultbed runs as root on a host is one of its verbs. */
  public static final byte[] HELPER = helper();
  /** Its SHA-256, which an installed copy must have. */
  public static final String HELPER_SHA256 = java.util.HexFormat.of().formatHex(sha256(HELPER));
  /** The helper's verbs. */
  static final Set<String> HELPER_VERBS = Set.of("version", "iptables", "tc", "ss", "pgrep", "kill", "cat", "pkill", "spin",
      "dd-load", "dd-clean", "logs", "has-logs");

  /** Channels open at once on one host's connection: under OpenSSH's default MaxSessions of 10. */
  static final int CHANNELS = 8;

  private final java.util.concurrent.Semaphore channels = new java.util.concurrent.Semaphore(CHANNELS, true);
  private final SshTarget target;
  private final SshClient client;
  private volatile ClientSession session; // connected again when it dropped
  private final Duration timeout;
  private final List<String> planned; // a dry run's actions, in order; null when actions run

  private RemoteHost(SshTarget target, SshClient client, ClientSession session, Duration timeout, boolean dryRun) {
    this.target = target;
    this.client = client;
    this.session = session;
    this.timeout = timeout;
    this.planned = dryRun ? Collections.synchronizedList(new ArrayList<>()) : null;
  }

  /** A session on the host whose actions run. */
  public static RemoteHost connect(SshTarget target, Duration timeout) {
    return open(target, timeout, false);
  }

  /** A session on the host whose actions are only written down ({@link #planned()}); probes run. */
  public static RemoteHost dryRun(SshTarget target, Duration timeout) {
    return open(target, timeout, true);
  }

  private static RemoteHost open(SshTarget target, Duration timeout, boolean dryRun) {
    if (!Files.isReadable(target.key())) {
      throw new PreconditionFailed("host " + target + ": its key " + target.key() + " is not a readable file");
    }
    if (!Files.isReadable(target.knownHosts())) {
      throw new PreconditionFailed("host " + target + ": its known-hosts file " + target.knownHosts()
          + " is not a readable file; add the host's key to it (ssh-keyscan -p " + target.port() + " "
          + target.address() + ", after checking the key)");
    }
    SshClient client = SshClient.setUpDefaultClient();
    // an unknown or changed host key is refused: faults go only to the host the inventory means
    client.setServerKeyVerifier(new KnownHostsServerKeyVerifier(RejectAllServerKeyVerifier.INSTANCE,
        target.knownHosts()));
    client.setKeyIdentityProvider(new FileKeyPairProvider(target.key()));
    // every command is a handful of small messages each way: Nagle's algorithm against the peer's
    // delayed ACKs would add tens of milliseconds to each of them
    org.apache.sshd.core.CoreModuleProperties.TCP_NODELAY.set(client, true);
    client.start();
    ClientSession session = null;
    try {
      session = client.connect(target.user(), target.address(), target.port()).verify(timeout).getSession();
    } catch (IOException | RuntimeException e) {
      client.stop();
      throw refused(target, e, "is not reachable over SSH: ");
    }
    try {
      session.auth().verify(timeout);
    } catch (IOException | RuntimeException e) {
      close(session, client);
      throw refused(target, e, "refused the login with key " + target.key() + ": ");
    }
    RemoteHost host = new RemoteHost(target, client, session, timeout, dryRun);
    try {
      host.checkHelper();
    } catch (RuntimeException e) {
      host.close();
      throw e;
    }
    return host;
  }

  private static byte[] helper() {
    try (var in = RemoteHost.class.getResourceAsStream("faultbed-host")) {
      if (in == null) {
        throw new IllegalStateException("faultbed-host is missing from faultbed's classes");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static byte[] sha256(byte[] bytes) {
    try {
      return java.security.MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  public SshTarget target() {
    return target;
  }

  public boolean isDryRun() {
    return planned != null;
  }

  /** Runs a command that only reads the host, as the login user; also in a dry run. */
  public Result probe(List<String> argv) {
    return exec(new Line(argv, null));
  }

  /** Runs a command that only reads the host but needs root to (iptables -S); also in a dry run. */
  public Result probeAsRoot(List<String> argv) {
    return exec(asRoot(argv));
  }

  @Override
  public Result inspect(List<String> argv) {
    return probeAsRoot(argv);
  }

  @Override
  public String where() {
    return "host " + target;
  }

  /** The interface the host's address {@code address} is on (ip's one-line listing, as the login). */
  public String deviceOf(String address) {
    Result r = probe(List.of("ip", "-o", "-4", "addr", "show"));
    for (String line : r.out().split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (f.length > 3 && f[2].equals("inet") && f[3].startsWith(address + "/")) {
        return f[1].replaceFirst("@.*$", "");
      }
    }
    throw new PreconditionFailed(where() + ": no interface has the worker's address " + address
        + " (ip -o -4 addr show)");
  }

  /**
   * Runs a command that changes the host, as root; in a dry run writes it down and reports success
   * with no output. A program the host's sudo rule does not allow is refused before anything runs.
   */
  @Override
  public Result act(List<String> argv) {
    Line command = asRoot(argv);
    if (planned != null) {
      planned.add(quote(command.argv()));
      return new Result(0, "", "");
    }
    return exec(command);
  }

  /**
   * Runs a command that changes the host but needs no root (faultbed's own files in the login's
   * home), as the login user; in a dry run writes it down instead.
   */
  @Override
  public Result actAsLogin(List<String> argv) {
    if (planned != null) {
      planned.add(quote(argv));
      return new Result(0, "", "");
    }
    return exec(new Line(argv, null));
  }

  /** {@link #act} that fails, with what the command printed, unless it exits 0. */
  @Override
  public String check(List<String> argv) {
    Result r = act(argv);
    if (!r.ok()) {
      throw new IllegalStateException("host " + target.name() + ": " + quote(argv) + " failed (" + r.code() + "): "
          + r.said());
    }
    return r.out();
  }

  /** The actions a dry run would have run, as command lines, in order; empty when actions run. */
  public List<String> planned() {
    return planned == null ? List.of() : List.copyOf(planned);
  }

  /**
   * A verb of the host helper as root, as {@link Become} says: the helper installed, or sent on
   * standard input to a root shell. Anything else only where root may run anything.
   */
  private Line asRoot(List<String> argv) {
    if (!HELPER_VERBS.contains(argv.get(0))) {
      // an undo an older faultbed wrote in a host's ledger: as it was run then, where root may run anything
      if (target.become() instanceof Become.Helper h) {
        throw new PreconditionFailed("host " + target + ": " + quote(argv) + " needs root and is not a verb of"
            + " faultbed-host, the only program sudo may run here (" + h.path() + "); expected a ledger of this"
            + " faultbed, or undo it by hand");
      }
      return new Line(rootCommand(argv), null);
    }
    List<String> out = new ArrayList<>();
    if (target.become() instanceof Become.Helper h) {
      out.addAll(List.of("sudo", "-n", "--", h.path()));
    } else if (target.become() instanceof Become.Sudo) {
      out.addAll(List.of("sudo", "-n", "--", "sh", "-s", "--"));
    } else {
      out.addAll(List.of("sh", "-s", "--"));
    }
    out.addAll(argv);
    return new Line(out, target.become() instanceof Become.Helper ? null : HELPER);
  }

  /**
   * A command that is not the helper's (the inventory's NodeManager start command) as root: as it is
   * for a root login, else under {@code sudo -n}, which the host's sudo rule must allow exactly.
   */
  public List<String> rootCommand(List<String> argv) {
    if (target.become() instanceof Become.Root) {
      return List.copyOf(argv);
    }
    List<String> out = new ArrayList<>(List.of("sudo", "-n", "--"));
    out.addAll(argv);
    return out;
  }

  /**
   * Refused with one line unless the login may run {@code argv} as root: sudo's own answer
   * ({@code sudo -n -l}), asked before anything depends on it.
   */
  public void checkMayRunAsRoot(List<String> argv) {
    if (target.become() instanceof Become.Root) {
      return;
    }
    List<String> ask = new ArrayList<>(List.of("sudo", "-n", "-l", "--"));
    ask.addAll(argv);
    Result r = exec(new Line(ask, null));
    if (!r.ok()) {
      throw new PreconditionFailed("host " + target + ": sudo does not let " + target.user() + " run " + quote(argv)
          + " without a password (sudo -n -l: " + oneLineOf(r.said()) + "); add it to the host's sudo rule"
          + " (docs/backends.md)");
    }
  }

  /**
   * With an installed helper: refused with one line unless it is this faultbed's (the same bytes)
   * and the login's sudo rule runs it.
   */
  private void checkHelper() {
    if (!(target.become() instanceof Become.Helper h)) {
      return;
    }
    Result sum = exec(new Line(List.of("sha256sum", "--", h.path()), null));
    String found = sum.ok() ? sum.out().strip().split("\\s+")[0] : null;
    if (!HELPER_SHA256.equals(found)) {
      throw new PreconditionFailed("host " + target + ": " + h.path() + " is " + (found == null
          ? "not readable (" + oneLineOf(sum.said()) + ")" : "not this faultbed's helper (sha256 " + found + ")")
          + "; expected faultbed-host with sha256 " + HELPER_SHA256 + ", installed root-owned from faultbed's"
          + " distribution (docs/backends.md)");
    }
    Result v = exec(new Line(List.of("sudo", "-n", "--", h.path(), "version"), null));
    if (!v.ok()) {
      throw new PreconditionFailed("host " + target + ": sudo -n -- " + h.path() + " version failed (" + v.code()
          + ": " + oneLineOf(v.said()) + "); expected a sudo rule letting " + target.user() + " run it without a"
          + " password (docs/backends.md)");
    }
  }

  private static String oneLineOf(String said) {
    return said.lines().findFirst().orElse("").strip();
  }

  /**
   * Runs a command that only reads the host, as the login user, and returns its output as bytes
   * (an archive); fails with what it printed on error unless it exits 0. Also in a dry run.
   */
  public byte[] read(List<String> argv) {
    return bytes(new Line(argv, null));
  }

  /** {@link #read} as root: what only root may read (other users' container logs). */
  public byte[] readAsRoot(List<String> argv) {
    return bytes(asRoot(argv));
  }

  private byte[] bytes(Line line) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = run(line, out, err);
    if (code != 0) {
      throw new IllegalStateException("host " + target.name() + ": " + quote(line.argv()) + " failed (" + code + "): "
          + err.toString(StandardCharsets.UTF_8).strip());
    }
    return out.toByteArray();
  }

  private Result exec(Line line) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = run(line, out, err);
    return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** A command line, and what goes to its standard input (the helper's text for {@code sh -s}; null: nothing). */
  private record Line(List<String> argv, byte[] stdin) {}

  private int run(Line line, ByteArrayOutputStream out, ByteArrayOutputStream err) {
    String command = quote(line.argv());
    long began = System.nanoTime();
    String ended = "did not run";
    acquire(command);
    try (ChannelExec channel = opened(command, line.stdin(), out, err)) {
      Set<ClientChannelEvent> events = channel.waitFor(EnumSet.of(ClientChannelEvent.CLOSED), timeout);
      if (events.contains(ClientChannelEvent.TIMEOUT)) {
        ended = "did not end within " + timeout;
        throw new IllegalStateException("host " + target.name() + ": " + command + " did not end within " + timeout);
      }
      Integer code = channel.getExitStatus();
      ended = "exit " + (code == null ? "unknown" : code);
      return code == null ? -1 : code;
    } catch (IOException e) {
      ended = "could not run: " + oneLine(e);
      throw new IllegalStateException("host " + target.name() + ": " + command + " could not run: " + oneLine(e), e);
    } finally {
      channels.release();
      COMMANDS.info("{} ({}@{}): {}: {} in {} ms", target.name(), target.user(), target.address(), command, ended,
          (System.nanoTime() - began) / 1_000_000);
    }
  }

  /**
   * An exec channel of the session, open. sshd frees a finished session's slot only once it has
   * read the client's close, after the client has counted the channel closed; a channel asked for
   * in between is refused ("open failed") though fewer than {@link #CHANNELS} are open. So a
   * refusal is asked again, backing off, until the timeout.
   */
  private ChannelExec opened(String command, byte[] stdin, ByteArrayOutputStream out, ByteArrayOutputStream err)
      throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (long backoffMs = 10; ; backoffMs = Math.min(backoffMs * 2, 500)) {
      ClientSession s = session();
      ChannelExec channel;
      try {
        channel = s.createExecChannel(command);
      } catch (IOException | RuntimeException closing) {
        if (s.isOpen() && !s.isClosing() || System.nanoTime() + backoffMs * 1_000_000 > deadline) {
          throw closing;
        }
        continue; // it dropped meanwhile: connected again on the next turn
      }
      if (stdin != null) {
        channel.setIn(new java.io.ByteArrayInputStream(stdin));
      }
      channel.setOut(out);
      channel.setErr(err);
      try {
        channel.open().verify(timeout);
        return channel;
      } catch (IOException e) {
        channel.close(true);
        // verify() wraps the refusal in an SshException
        boolean refused = e instanceof org.apache.sshd.common.channel.exception.SshChannelOpenException
            || e.getCause() instanceof org.apache.sshd.common.channel.exception.SshChannelOpenException;
        // a connection that dropped before the channel opened ran nothing: open it on a new one
        boolean dropped = !s.isOpen() || s.isClosing();
        if (!refused && !dropped || System.nanoTime() + backoffMs * 1_000_000 > deadline) {
          throw e;
        }
        try {
          Thread.sleep(backoffMs);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException("interrupted while " + command + " waited for a channel");
        }
      } catch (RuntimeException e) {
        channel.close(true);
        throw e;
      }
    }
  }

  /**
   * The SSH session, connected again when the last one dropped (sshd restarted, the connection
   * cut): a fault made before the drop is healed over the new one, at once, rather than left for
   * the host's ledger. A command that was running when it dropped is not run again: it failed.
   */
  private synchronized ClientSession session() throws IOException {
    ClientSession s = session;
    if (s.isOpen() && !s.isClosing()) {
      return s;
    }
    ClientSession again = null;
    try {
      again = client.connect(target.user(), target.address(), target.port()).verify(timeout).getSession();
      again.auth().verify(timeout);
    } catch (IOException | RuntimeException e) {
      if (again != null) {
        again.close(true);
      }
      throw new IOException("the SSH connection dropped, and connecting again failed: " + oneLine(e), e);
    }
    s.close(true);
    session = again;
    COMMANDS.info("{} ({}@{}): the SSH connection had dropped; connected again", target.name(), target.user(),
        target.address());
    return again;
  }

  /**
   * A channel of the session, waiting (bounded) while {@link #CHANNELS} are open: sshd refuses
   * more sessions on one connection than its MaxSessions (OpenSSH: 10), and faults on several
   * steps, their heals and the harness's probes may all reach one host at once.
   */
  private void acquire(String command) {
    try {
      if (!channels.tryAcquire(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException("host " + target.name() + ": " + command + " waited " + timeout + " for one of "
            + CHANNELS + " SSH channels");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("host " + target.name() + ": interrupted before " + command, e);
    }
  }

  /**
   * This host's clock minus this machine's, in milliseconds: the midpoint of the shortest of
   * {@code probes} round trips to a shell on the host that answers each line it reads with its
   * time, so no login or process start is inside a round trip. Half that round trip bounds the error.
   */
  public ClockOffset clockOffset(int probes) {
    java.util.concurrent.CompletableFuture<ClockOffset> f = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
      acquire("clock probe");
      // a fixed number of answers, so the shell ends by itself and its session is freed (sshd keeps a
      // session whose command still runs, and allows only so many per connection)
      String loop = "i=0; while [ $i -le " + probes + " ] && read x; do date +%s%3N; i=$((i+1)); done";
      try (ChannelExec ch = session().createExecChannel(quote(List.of("sh", "-c", loop)))) {
        ch.open().verify(timeout);
        java.io.OutputStream in = ch.getInvertedIn();
        java.io.BufferedReader out = new java.io.BufferedReader(
            new java.io.InputStreamReader(ch.getInvertedOut(), StandardCharsets.UTF_8));
        long bestRtt = Long.MAX_VALUE;
        long offset = 0;
        for (int i = 0; i <= probes; i++) { // the first warms the path and is not counted
          long sent = System.currentTimeMillis();
          long n0 = System.nanoTime();
          in.write('\n');
          in.flush();
          String line = out.readLine();
          long rtt = System.nanoTime() - n0;
          if (line == null) {
            throw new IllegalStateException("host " + target.name() + ": the clock probe ended early");
          }
          if (i > 0 && rtt < bestRtt) {
            bestRtt = rtt;
            offset = Long.parseLong(line.strip()) - (sent + rtt / 2_000_000);
          }
        }
        in.close();
        ch.waitFor(EnumSet.of(ClientChannelEvent.CLOSED), timeout);
        return new ClockOffset(offset, bestRtt / 1_000_000.0);
      } catch (IOException e) {
        throw new IllegalStateException("host " + target.name() + ": the clock probe failed: " + oneLine(e), e);
      } finally {
        channels.release();
      }
    });
    try {
      return f.get(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.TimeoutException e) {
      f.cancel(true);
      throw new IllegalStateException("host " + target.name() + ": the clock probe did not end within " + timeout);
    } catch (java.util.concurrent.ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("host " + target.name() + ": interrupted", e);
    }
  }

  /** A host's clock minus this machine's, and the round trip it was measured in (its error is at most half). */
  public record ClockOffset(long offsetMs, double roundTripMs) {}

  /** The command line a POSIX shell splits back into {@code argv}: every word in single quotes. */
  public static String quote(List<String> argv) {
    return argv.stream().map(w -> w.matches("[A-Za-z0-9_@%+=:,./-]+") ? w : "'" + w.replace("'", "'\\''") + "'")
        .collect(Collectors.joining(" "));
  }

  /** One line for a failed connect or login; a host key faultbed does not know says so apart. */
  private static PreconditionFailed refused(SshTarget target, Throwable e, String what) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t.getMessage() != null && t.getMessage().contains("Server key did not validate")) {
        return new PreconditionFailed("host " + target + ": its host key is not the one in " + target.knownHosts()
            + " (unknown or changed); check it, then add it (ssh-keyscan -p " + target.port() + " "
            + target.address() + ")");
      }
    }
    return new PreconditionFailed("host " + target + " " + what + oneLine(e));
  }

  private static String oneLine(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String m = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    return m.lines().findFirst().orElse(m).strip();
  }

  private static void close(ClientSession session, SshClient client) {
    try {
      session.close();
    } catch (IOException ignored) {
      // the client's stop closes what is left
    }
    client.stop();
  }

  @Override
  public void close() {
    close(session, client);
  }
}
