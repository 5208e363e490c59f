package faultbed.harness.containers;

import com.github.dockerjava.api.exception.NotFoundException;
import faultbed.faults.DockerEngine;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.images.builder.ImageFromDockerfile;
import org.testcontainers.utility.DockerImageName;

/**
 * The image node containers run: a JRE 17 with iproute2 ({@code ip}, {@code tc}) and procps
 * ({@code ps}, {@code pkill}). The one {@value #PROPERTY} (or {@value #VARIABLE}) names; else {@value #LOCAL} where the
 * engine has it (machines without a registry build that one themselves); else one built here once
 * from Debian's packages, kept as {@value #BUILT}.
 */
final class NodeImage {
  static final String PROPERTY = "faultbed.node.image";
  static final String VARIABLE = "FAULTBED_NODE_IMAGE";
  static final String LOCAL = "faultbed-tools/jre:17";
  static final String BUILT = "faultbed/node:jre17";
  private static final ImageFromDockerfile BUILD = new ImageFromDockerfile(BUILT, false)
      .withDockerfileFromBuilder(b -> b.from("debian:bookworm-slim")
          .run("apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends"
              + " openjdk-17-jre-headless iproute2 procps && rm -rf /var/lib/apt/lists/*")
          .build());

  private NodeImage() {}

  /** A container of the node image, not yet configured. */
  static GenericContainer<?> container() {
    String named = System.getProperty(PROPERTY, System.getenv(VARIABLE));
    if (named != null && !named.isBlank()) {
      return new GenericContainer<>(DockerImageName.parse(named));
    }
    for (String present : new String[] {LOCAL, BUILT}) {
      if (exists(present)) {
        return new GenericContainer<>(DockerImageName.parse(present));
      }
    }
    return new GenericContainer<>(BUILD);
  }

  private static boolean exists(String image) {
    try {
      DockerEngine.client().inspectImageCmd(image).exec();
      return true;
    } catch (NotFoundException e) {
      return false;
    }
  }
}
