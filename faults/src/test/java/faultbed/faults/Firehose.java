package faultbed.faults;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;

/** A loopback server that writes as fast as its client reads, and the client that measures it. */
final class Firehose {
  private Firehose() {}

  static ServerSocket start() throws IOException {
    return start(new ServerSocket(0));
  }

  static ServerSocket start(ServerSocket server) {
    Thread t = new Thread(() -> {
      byte[] chunk = new byte[64 * 1024];
      while (!server.isClosed()) {
        try (Socket c = server.accept(); OutputStream out = c.getOutputStream()) {
          while (true) {
            out.write(chunk);
          }
        } catch (IOException closed) {
          // client gone or server closed
        }
      }
    });
    t.setDaemon(true);
    t.start();
    return server;
  }

  /** Bytes per second read from {@code port} over {@code window}, after skipping {@code warmUp} (an htb burst). */
  static double bytesPerSecond(int port, Duration window, Duration warmUp) throws IOException {
    return bytesPerSecond("127.0.0.1", port, window, warmUp);
  }

  static double bytesPerSecond(String host, int port, Duration window, Duration warmUp) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(host, port), 1000);
      InputStream in = s.getInputStream();
      byte[] buf = new byte[256 * 1024];
      long start = System.nanoTime();
      long end = start + window.toNanos();
      long warm = start + warmUp.toNanos();
      long bytes = 0;
      long t0 = 0;
      while (System.nanoTime() < end) {
        int n = in.read(buf);
        if (n < 0) {
          break;
        }
        if (System.nanoTime() >= warm) {
          if (t0 == 0) {
            t0 = System.nanoTime();
          }
          bytes += n;
        }
      }
      return bytes / ((System.nanoTime() - t0) / 1e9);
    }
  }
}
