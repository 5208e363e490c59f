package faultbed.harness;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;

/**
 * A Hadoop client configuration folder for a running cluster, as {@code HADOOP_CONF_DIR} expects
 * it: core-site, hdfs-site, yarn-site and mapred-site, each holding the settings of its prefix that
 * differ from Hadoop's defaults (addresses, ports, faultbed's container sizes and timers).
 *
 * <p>Two settings are the client's own: jobs must not carry the client's classpath into their
 * containers (Hadoop does so only for its mini clusters), and must run the cluster's Hadoop
 * instead, whatever Hadoop the client has, as on a real cluster whose nodes have their own install.
 */
public final class ClientConfiguration {
  public static final List<String> FILES = List.of("core-site.xml", "hdfs-site.xml", "yarn-site.xml", "mapred-site.xml");

  private ClientConfiguration() {}

  /** Writes the folder (created if need be) and returns how many settings it holds. */
  public static int write(Cluster cluster, Path dir) {
    Map<String, Map<String, String>> files = split(settings(cluster.configuration()));
    try {
      Files.createDirectories(dir);
      int n = 0;
      for (String name : FILES) {
        Configuration part = new Configuration(false);
        files.get(name).forEach((k, v) -> part.set(k, v, "faultbed cluster up"));
        n += files.get(name).size();
        Path tmp = dir.resolve(name + ".tmp");
        try (OutputStream out = Files.newOutputStream(tmp)) {
          part.writeXml(out);
        }
        Files.move(tmp, dir.resolve(name), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
            java.nio.file.StandardCopyOption.ATOMIC_MOVE);
      }
      return n;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the client configuration to " + dir, e);
    }
  }

  /** The cluster's settings that Hadoop's defaults do not already give, plus the client's own two. */
  static Map<String, String> settings(Configuration cluster) {
    Configuration defaults = new Configuration(false);
    for (String r : List.of("core-default.xml", "hdfs-default.xml", "yarn-default.xml", "mapred-default.xml")) {
      defaults.addResource(r);
    }
    Map<String, String> out = new TreeMap<>();
    for (Map.Entry<String, String> e : cluster) {
      // rpc.engine.*: what each RPC protocol registered at run time; a client registers its own
      if (!e.getKey().startsWith("rpc.engine.") && !e.getValue().equals(defaults.getRaw(e.getKey()))) {
        out.put(e.getKey(), e.getValue());
      }
    }
    out.put("yarn.is.minicluster", "false");
    out.put("mapreduce.application.classpath",
        String.join(",", System.getProperty("java.class.path").split(java.io.File.pathSeparator)));
    return out;
  }

  /**
   * By prefix, as Hadoop's own default files divide them (yarn.app.mapreduce.* are MapReduce's);
   * anything else is core's.
   */
  static Map<String, Map<String, String>> split(Map<String, String> settings) {
    Map<String, Map<String, String>> files = new LinkedHashMap<>();
    FILES.forEach(f -> files.put(f, new TreeMap<>()));
    settings.forEach((k, v) -> {
      String file = k.startsWith("dfs.") ? "hdfs-site.xml"
          : k.startsWith("mapreduce.") || k.startsWith("mapred.") || k.startsWith("yarn.app.mapreduce.") ? "mapred-site.xml"
          : k.startsWith("yarn.") ? "yarn-site.xml"
          : "core-site.xml";
      files.get(file).put(k, v);
    });
    return files;
  }
}
