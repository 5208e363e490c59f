package faultbed.experiments.cli;

import faultbed.experiments.scenario.ScenarioException;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import picocli.CommandLine.Option;

/**
 * The user's own jars and class folders (speculators, policies, estimators), from {@code --classpath}
 * and {@code FAULTBED_CLASSPATH}. They reach the job's containers through {@code java.class.path}:
 * Hadoop hands the submitting JVM's class path to the ApplicationMaster on a mini cluster
 * ({@code MRApps.setClasspath} with {@code yarn.is.minicluster}), and the namespace backend starts
 * its node processes with it. The harness itself loads them through the context class loader.
 */
public final class UserClasspath {
  static final String ENV = "FAULTBED_CLASSPATH";

  @Option(names = "--classpath", paramLabel = "PATH", description = "jars or class folders with your speculators"
      + " and policies, separated by ':' ('dir/*' for every jar in dir); added to " + ENV + "'s")
  String classpath;

  /** What was installed, to undo: the previous class path and context class loader. */
  public record Installed(String previousClassPath, ClassLoader previousLoader) implements AutoCloseable {
    @Override
    public void close() {
      if (previousClassPath != null) {
        System.setProperty("java.class.path", previousClassPath);
        Thread.currentThread().setContextClassLoader(previousLoader);
      }
    }
  }

  /** A {@code --classpath} or {@code FAULTBED_CLASSPATH} entry that is not there. */
  public static final class BadEntry extends IllegalArgumentException {
    BadEntry(String message) {
      super(ScenarioException.oneLine(message)); // an entry may hold a line break
    }
  }

  /** Puts the entries on the class path for this command; closing the result takes them off again. */
  public Installed install() {
    return install(System.getenv(ENV), classpath);
  }

  static Installed install(String fromEnv, String fromOption) {
    List<Path> entries = new ArrayList<>(entries(fromEnv, ENV));
    entries.addAll(entries(fromOption, "--classpath"));
    if (entries.isEmpty()) {
      return new Installed(null, null);
    }
    String before = System.getProperty("java.class.path");
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    StringBuilder cp = new StringBuilder(before);
    List<URL> urls = new ArrayList<>();
    for (Path p : entries) {
      cp.append(File.pathSeparator).append(p);
      try {
        urls.add(p.toUri().toURL());
      } catch (MalformedURLException e) {
        throw new BadEntry(p + ": " + e.getMessage());
      }
    }
    System.setProperty("java.class.path", cp.toString());
    Thread.currentThread().setContextClassLoader(new URLClassLoader(urls.toArray(URL[]::new),
        loader != null ? loader : UserClasspath.class.getClassLoader()));
    return new Installed(before, loader);
  }

  /** Absolute paths (containers start elsewhere), each checked to exist; 'dir/*' is the jars in dir. */
  static List<Path> entries(String text, String field) {
    List<Path> out = new ArrayList<>();
    if (text == null || text.isBlank()) {
      return out;
    }
    for (String e : text.split(File.pathSeparator)) {
      if (e.isBlank()) {
        continue;
      }
      if (e.endsWith("/*")) {
        Path dir = path(e.substring(0, e.length() - 2), e, field);
        if (!Files.isDirectory(dir)) {
          throw new BadEntry(field + ": expected jars or class folders that exist, got \"" + e + "\" (no folder " + dir + ")");
        }
        try (Stream<Path> s = Files.list(dir)) {
          s.filter(p -> p.toString().endsWith(".jar")).sorted().forEach(out::add);
        } catch (IOException x) {
          throw new UncheckedIOException(x);
        }
        continue;
      }
      Path p = path(e, e, field);
      if (!Files.exists(p)) {
        throw new BadEntry(field + ": expected jars or class folders that exist, got \"" + e + "\" (not found)");
      }
      if (Files.isRegularFile(p) && !p.toString().endsWith(".jar") && !p.toString().endsWith(".zip")) {
        throw new BadEntry(field + ": expected a .jar, a .zip or a class folder, got \"" + e + "\"");
      }
      out.add(p);
    }
    return out;
  }

  /** {@code text} as an absolute path; one no file can have (a NUL in it, say) is a bad entry, not an error. */
  private static Path path(String text, String entry, String field) {
    try {
      return Path.of(text).toAbsolutePath().normalize();
    } catch (java.nio.file.InvalidPathException x) {
      throw new BadEntry(field + ": expected jars or class folders that exist, got \"" + entry + "\" (" + x.getReason() + ")");
    }
  }
}
