package faultbed.faults;

/**
 * A process that reads the clocks a JVM reads: ten times a second it prints the time of day
 * ({@code System.currentTimeMillis}, and as {@code new Date()} has it) and the monotonic clock
 * ({@code System.nanoTime}), in ms.
 */
public final class ClockProbe {
  private ClockProbe() {}

  public static void main(String[] args) throws InterruptedException {
    while (true) {
      System.out.println(System.currentTimeMillis() + " " + new java.util.Date().getTime() + " " + System.nanoTime() / 1_000_000);
      System.out.flush();
      Thread.sleep(100);
    }
  }
}
