package faultbed.experiments;

import faultbed.experiments.scenario.HostLimits;
import faultbed.faults.CgroupLayout;
import faultbed.results.RunRecord.Provenance;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** The provenance block of this machine and build ({@link BuildInfo}), for every record a suite writes. */
public final class Provenances {
  private Provenances() {}

  public static Provenance here(Path scenarioFile) {
    BuildInfo build = BuildInfo.here();
    return new Provenance(hostName(), System.getProperty("os.name") + " " + System.getProperty("os.version"),
        CgroupLayout.current().describe(), Runtime.getRuntime().availableProcessors(), HostLimits.memoryMb(),
        build.java(), build.hadoop(), build.faultbed(), build.commit(), sha256(scenarioFile));
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
