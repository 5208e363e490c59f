package faultbed.faults;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * A JVM start heavy in class loading, as a daemon's is: every class of Jackson's databind loaded,
 * then {@code System.currentTimeMillis()} called in a loop. Prints the load time and the cost of a
 * call, in that order.
 */
public final class ClockLoad {
  private ClockLoad() {}

  public static void main(String[] args) throws IOException, URISyntaxException {
    long t0 = System.nanoTime();
    Path jar = Path.of(com.fasterxml.jackson.databind.ObjectMapper.class.getProtectionDomain().getCodeSource()
        .getLocation().toURI());
    int loaded = 0;
    try (JarFile j = new JarFile(jar.toFile())) {
      for (Enumeration<JarEntry> e = j.entries(); e.hasMoreElements(); ) {
        String n = e.nextElement().getName();
        if (n.endsWith(".class") && !n.contains("module-info")) {
          try {
            Class.forName(n.substring(0, n.length() - 6).replace('/', '.'), false, ClockLoad.class.getClassLoader());
            loaded++;
          } catch (Throwable skipped) {
            // a class that needs an optional dependency
          }
        }
      }
    }
    long loadNs = System.nanoTime() - t0;
    long sum = 0;
    long t1 = System.nanoTime();
    for (int i = 0; i < 5_000_000; i++) {
      sum += System.currentTimeMillis();
    }
    long callNs = System.nanoTime() - t1;
    System.out.println(loaded + " " + loadNs / 1_000_000 + " " + (callNs / 5_000_000.0) + " " + (sum != 0));
  }
}
