package faultbed.faults;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;

/** A server that sends every byte back at once, a connection per thread. */
final class Echo {
  private Echo() {}

  /** Serves on a fresh loopback port from a daemon thread. */
  static ServerSocket start() throws IOException {
    ServerSocket s = new ServerSocket(0);
    Thread t = new Thread(() -> serve(s));
    t.setDaemon(true);
    t.start();
    return s;
  }

  /** Accepts until the server socket closes. */
  static void serve(ServerSocket s) {
    while (!s.isClosed()) {
      try {
        Socket c = s.accept();
        Thread w = new Thread(() -> {
          try (c; InputStream in = c.getInputStream(); OutputStream out = c.getOutputStream()) {
            int b;
            while ((b = in.read()) >= 0) {
              out.write(b);
              out.flush();
            }
          } catch (IOException gone) {
            // client left
          }
        });
        w.setDaemon(true);
        w.start();
      } catch (IOException closed) {
        // server closed
      }
    }
  }
}
