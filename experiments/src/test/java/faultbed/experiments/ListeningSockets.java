package faultbed.experiments;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The TCP sockets a process listens on, from the kernel's own tables ({@code /proc/PID/net/tcp} and
 * {@code tcp6}, matched to the process's file descriptors by inode), and which of them could be
 * reached from outside: anything not bound to loopback or to the networks faultbed makes itself
 * (198.18.0.0/15).
 */
final class ListeningSockets {
  private ListeningSockets() {}

  /** One listening socket: its address and port. */
  record Listener(InetAddress address, int port) {
    boolean ownNetworkOnly() {
      byte[] a = address.getAddress();
      if (address.isLoopbackAddress()) {
        return true;
      }
      if (a.length == 16 && isV4Mapped(a)) {
        return a[12] == 127 || (a[12] & 0xff) == 198 && ((a[13] & 0xff) == 18 || (a[13] & 0xff) == 19);
      }
      return a.length == 4 && (a[0] & 0xff) == 198 && ((a[1] & 0xff) == 18 || (a[1] & 0xff) == 19);
    }

    @Override
    public String toString() {
      return address.getHostAddress() + ":" + port;
    }
  }

  private static boolean isV4Mapped(byte[] a) {
    for (int i = 0; i < 10; i++) {
      if (a[i] != 0) {
        return false;
      }
    }
    return a[10] == (byte) 0xff && a[11] == (byte) 0xff;
  }

  /** What process {@code pid} listens on. */
  static List<Listener> of(long pid) throws IOException {
    Set<String> inodes = new HashSet<>();
    try (var fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
      for (Path fd : fds.toList()) {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.startsWith("socket:[")) {
            inodes.add(target.substring(8, target.length() - 1));
          }
        } catch (IOException closed) {
          // closed meanwhile
        }
      }
    }
    List<Listener> out = new ArrayList<>();
    for (String table : List.of("tcp", "tcp6")) {
      Path file = Path.of("/proc", Long.toString(pid), "net", table);
      if (!Files.exists(file)) {
        continue;
      }
      for (String line : Files.readAllLines(file).subList(1, Files.readAllLines(file).size())) {
        String[] f = line.trim().split("\\s+");
        if (f.length > 9 && f[3].equals("0A") && inodes.contains(f[9])) { // 0A: LISTEN
          String[] local = f[1].split(":");
          out.add(new Listener(address(local[0]), Integer.parseInt(local[1], 16)));
        }
      }
    }
    return out;
  }

  /** The kernel's hex: 32-bit words in host (little-endian) order. */
  private static InetAddress address(String hex) throws UnknownHostException {
    byte[] a = new byte[hex.length() / 2];
    for (int w = 0; w < a.length / 4; w++) {
      for (int b = 0; b < 4; b++) {
        a[w * 4 + b] = (byte) Integer.parseInt(hex.substring(w * 8 + (3 - b) * 2, w * 8 + (3 - b) * 2 + 2), 16);
      }
    }
    return InetAddress.getByAddress(a);
  }
}
