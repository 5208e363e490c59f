package faultbed.experiments;

import faultbed.experiments.scenario.HostLimits;
import faultbed.faults.CgroupLayout;
import faultbed.results.RunRecord.Provenance;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Properties;
import org.apache.hadoop.util.VersionInfo;

/**
 * The provenance block of this machine and build, for every record a suite writes. faultbed's
 * version and commit come from {@code faultbed-build.properties}, written at build time (the commit
 * by git-commit-id-maven-plugin); "unknown" when faultbed was built outside a git checkout.
 */
public final class Provenances {
  private Provenances() {}

  public static Provenance here(Path scenarioFile) {
    Properties build = new Properties();
    try (InputStream in = Provenances.class.getResourceAsStream("/faultbed-build.properties")) {
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
    return new Provenance(hostName(), System.getProperty("os.name") + " " + System.getProperty("os.version"),
        CgroupLayout.current().describe(), Runtime.getRuntime().availableProcessors(), HostLimits.memoryMb(),
        System.getProperty("java.vendor") + " " + System.getProperty("java.runtime.version"),
        VersionInfo.getVersion(), known(build.getProperty("faultbed.version")), commit, sha256(scenarioFile));
  }

  private static String known(String v) {
    return v == null || v.isBlank() || v.startsWith("${") ? "unknown" : v;
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "unknown";
    }
  }

  static String sha256(Path file) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
