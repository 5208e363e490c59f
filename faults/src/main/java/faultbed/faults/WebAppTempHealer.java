package faultbed.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The folders Jetty unpacks a Hadoop daemon's web app into, under the temp folder, that outlived
 * their daemon. Jetty removes its folder when the web app stops; a harness killed by a signal
 * never stops it. A folder is stale when nothing listens on the port in its name: Hadoop binds the
 * port before Jetty makes the folder, and holds it until the web app has stopped.
 */
public final class WebAppTempHealer implements Healer {
  public static final String KIND = "web-app-temp";
  /**
   * Jetty's name: jetty-HOST-PORT-RESOURCEBASE-CONTEXT-VHOST-RANDOM with every '.' made '_', here of
   * Hadoop's web apps bound to loopback, every address, or the project's own 198.18.0.0/15 (the
   * namespace backend's bridge).
   */
  private static final Pattern NAME = Pattern.compile(
      "jetty-(localhost|0_0_0_0|127_\\d+_\\d+_\\d+|198_1[89]_\\d+_\\d+)-(\\d+)-hadoop-.*");

  private final Path tempDir;

  public WebAppTempHealer() {
    this(Path.of(System.getProperty("java.io.tmpdir")));
  }

  WebAppTempHealer(Path tempDir) {
    this.tempDir = tempDir;
  }

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public List<Found> findAll() {
    List<Found> found = new ArrayList<>();
    if (!Files.isDirectory(tempDir)) {
      return found;
    }
    try (Stream<Path> list = Files.list(tempDir)) {
      for (Path p : list.toList()) {
        Matcher m = NAME.matcher(p.getFileName().toString());
        if (m.matches() && Files.isDirectory(p) && !listening(m.group(1), Integer.parseInt(m.group(2)))) {
          found.add(new Found(new LedgerEntry(KIND, p.toString(), null,
              Map.of("host", m.group(1), "port", m.group(2))), null));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + tempDir, e);
    }
    return found;
  }

  @Override
  public String heal(LedgerEntry entry) {
    Path dir = Path.of(entry.id());
    String port = entry.detail().get("port");
    if (!Files.exists(dir) || (port != null && listening(entry.detail().getOrDefault("host", "localhost"),
        Integer.parseInt(port)))) {
      return null; // gone, or its port was taken again since it was found: leave it to its server
    }
    new DirectoryHealer().heal(DirectoryHealer.entry(dir, entry.runId()));
    return "removed web app folder " + dir;
  }

  private static boolean listening(String host, int port) {
    if (port <= 0 || port > 65_535) {
      return false;
    }
    String address = host.equals("localhost") || host.equals("0_0_0_0") ? "127.0.0.1" : host.replace('_', '.');
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(address, port), 500);
      return true;
    } catch (IOException refused) {
      return false;
    }
  }
}
