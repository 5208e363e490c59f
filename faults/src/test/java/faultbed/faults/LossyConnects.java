package faultbed.faults;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * Connects that show packet loss as TCP lives it: a lost SYN or SYN-ACK is sent again after the
 * kernel's one-second initial retransmission timeout, so such a connect still succeeds, a second or
 * more late. With each packet lost with probability p both ways, a connect is late with probability
 * 1 - (1 - p)^2.
 */
final class LossyConnects {
  /** A connect at least this long waited for a retransmission; on an idle link one takes a millisecond or so. */
  static final long LATE_MS = 900;

  private LossyConnects() {}

  /**
   * Connects until two were late and two on time, at most {@code n}: a lossy link shows both. Returns
   * the late ones; with fewer than two late or two on time the caller's check fails. A connect that
   * gave up counts as late: with p = 0.3 each way an exchange fails with probability 0.51, so all four
   * tries within 8 s fail for one connect in fifteen, and that is loss too, not a broken link.
   */
  static Count both(String host, int port, int n) throws IOException {
    int late = 0;
    int onTime = 0;
    for (int i = 0; i < n && (late < 2 || onTime < 2); i++) {
      long t0 = System.nanoTime();
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress(host, port), 8000);
      } catch (SocketTimeoutException e) {
        late++;
        continue;
      }
      if ((System.nanoTime() - t0) / 1_000_000 >= LATE_MS) {
        late++;
      } else {
        onTime++;
      }
    }
    return new Count(late, onTime);
  }

  /** Connects that waited for a retransmission and connects that did not. */
  record Count(int late, int onTime) {
    boolean showsLoss() {
      return late >= 2 && onTime >= 2;
    }
  }

  /** How many of {@code n} connects to the port were late; every one must connect within 8 s (three retries). */
  static int late(String host, int port, int n) throws IOException {
    int late = 0;
    for (int i = 0; i < n; i++) {
      long t0 = System.nanoTime();
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress(host, port), 8000);
      } catch (ConnectException | SocketTimeoutException e) {
        throw new AssertionError("connect " + i + " to " + host + ":" + port + " failed: " + e.getMessage(), e);
      }
      if ((System.nanoTime() - t0) / 1_000_000 >= LATE_MS) {
        late++;
      }
    }
    return late;
  }
}
