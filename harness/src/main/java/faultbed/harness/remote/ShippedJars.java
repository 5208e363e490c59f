package faultbed.harness.remote;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * What a job's containers need from faultbed on a cluster that has never seen it: the jars holding
 * the workloads' map and reduce classes and the time-scale agent (the harness), the speculation
 * policies the AM loads (schedulers), and Byte Buddy, which the agent rewrites classes with. Jobs
 * carry them in {@code tmpjars}: the client copies them to the job's staging folder and every
 * container, the AM's included, finds them on its classpath. A class read from a folder rather
 * than a jar (a build's {@code target/classes}) is packed into a jar first.
 */
final class ShippedJars {
  /** One class from each jar containers need. */
  static final List<String> ANCHORS = List.of("faultbed.harness.timescale.TimeScaleAgent",
      "faultbed.schedulers.yarn.PolicySpeculator", "net.bytebuddy.agent.builder.AgentBuilder");

  private ShippedJars() {}

  /** The local jars to ship, as a {@code tmpjars} value (comma-separated file URIs), packing folders into {@code dir}. */
  static String tmpjars(Path dir) {
    Set<String> uris = new LinkedHashSet<>();
    for (String anchor : ANCHORS) {
      uris.add(jarOf(anchor, dir).toUri().toString());
    }
    return String.join(",", uris);
  }

  /** The jar {@code className} is loaded from, or a jar packed from its classes folder. */
  static Path jarOf(String className, Path dir) {
    Path source;
    try {
      Class<?> c = Class.forName(className, false, ShippedJars.class.getClassLoader());
      source = Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (ClassNotFoundException | URISyntaxException | NullPointerException e) {
      throw new IllegalStateException("cannot find where " + className + " is loaded from, to ship it with jobs", e);
    }
    if (Files.isRegularFile(source)) {
      return source;
    }
    // a module's classes folder (<module>/target/classes): named after its module, so two never collide
    Path module = source.getParent() != null && source.getParent().getParent() != null
        ? source.getParent().getParent().getFileName() : source.getFileName();
    return pack(source, dir.resolve("faultbed-" + module + "-classes.jar"));
  }

  private static Path pack(Path classes, Path jar) {
    try (Stream<Path> files = Files.walk(classes)) {
      Files.createDirectories(jar.getParent());
      try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out)) {
        for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
          j.putNextEntry(new JarEntry(classes.relativize(f).toString().replace('\\', '/')));
          Files.copy(f, j);
          j.closeEntry();
        }
      }
      return jar;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot pack " + classes + " into " + jar + " to ship it with jobs", e);
    }
  }
}
