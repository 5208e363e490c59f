package faultbed.experiments;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import org.apache.hadoop.util.VersionInfo;

/**
 * What this faultbed was built from and runs on: its version and commit (from
 * {@code faultbed-build.properties}, written at build time; the commit by git-commit-id-maven-plugin,
 * "unknown" outside a git checkout), the Hadoop it runs, and the JVM.
 */
public record BuildInfo(String faultbed, String commit, String hadoop, String java) {
  public static BuildInfo here() {
    Properties build = new Properties();
    try (InputStream in = BuildInfo.class.getResourceAsStream("/faultbed-build.properties")) {
      if (in != null) {
        build.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String commit = known(build.getProperty("git.commit.id"));
    if (!commit.equals("unknown") && "true".equals(build.getProperty("git.dirty"))) {
      commit += "-dirty";
    }
    return new BuildInfo(known(build.getProperty("faultbed.version")), commit, VersionInfo.getVersion(),
        System.getProperty("java.vendor") + " " + System.getProperty("java.runtime.version"));
  }

  private static String known(String v) {
    return v == null || v.isBlank() || v.startsWith("${") ? "unknown" : v;
  }

  /** The lines {@code faultbed --version} prints. */
  public String[] lines() {
    return new String[] {"faultbed " + faultbed + " (commit " + commit + ")", "Hadoop " + hadoop, "Java " + java};
  }
}
