package faultbed.faults;

import java.util.ArrayList;
import java.util.List;

/**
 * A stand-in harness for {@link SigintMidInjectionTest}: several threads make and heal faults on
 * loopback without pause (packet-filter rules and tc classes on many ports), so that a SIGINT lands
 * while one is being made. Says READY and its owner once every thread has made one. Arguments: the
 * first of the ports, how many, how many threads.
 */
public final class InjectionLooper {
  public static void main(String[] args) throws Exception {
    int first = Integer.parseInt(args[0]);
    int count = Integer.parseInt(args[1]);
    int threads = Integer.parseInt(args[2]);
    List<Integer> ports = new ArrayList<>();
    for (int p = first; p < first + count; p++) {
      ports.add(p);
    }
    Ledger ledger = Ledger.open();
    Iptables rules = Iptables.loopback(ledger);
    TrafficControl shaping = TrafficControl.loopback(ledger);
    java.util.concurrent.CountDownLatch made = new java.util.concurrent.CountDownLatch(threads);
    for (int t = 0; t < threads; t++) {
      int thread = t;
      Thread loop = new Thread(() -> {
        try {
          for (long i = 0; ; i++) {
            List<Integer> mine = ports.subList(thread * count / threads, (thread + 1) * count / threads);
            Installed dropped = rules.dropAll("loop-" + thread + "-" + i, mine);
            Installed capped = shaping.cap(mine, 1_000_000);
            made.countDown();
            capped.heal();
            dropped.heal();
          }
        } catch (Ledger.Stopping stopping) {
          // the exit heal has run: nothing more is made
        }
      }, "injector-" + t);
      loop.start();
    }
    made.await();
    System.out.println("READY " + ledger.owner());
    System.out.flush();
    Thread.sleep(600_000);
  }
}
