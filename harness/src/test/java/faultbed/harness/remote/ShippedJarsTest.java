package faultbed.harness.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The jars a remote job carries: a dependency's own jar, and a module's classes folder packed into one. */
class ShippedJarsTest {
  @Test
  void everyAnchorComesInAJarThatHoldsIt(@TempDir Path dir) throws Exception {
    List<String> uris = Arrays.asList(ShippedJars.tmpjars(dir).split(","));
    assertEquals(ShippedJars.ANCHORS.size(), uris.size(), uris.toString());
    for (int i = 0; i < uris.size(); i++) {
      Path jar = Path.of(URI.create(uris.get(i)));
      assertTrue(Files.isRegularFile(jar) && jar.toString().endsWith(".jar"), jar.toString());
      String entry = ShippedJars.ANCHORS.get(i).replace('.', '/') + ".class";
      try (JarFile j = new JarFile(jar.toFile())) {
        assertNotNull(j.getEntry(entry), jar + " lacks " + entry);
      }
    }
  }

  @Test
  void aClassesFolderIsPackedUnderItsModulesName(@TempDir Path dir) throws Exception {
    // in this module's own tests, the harness's classes come from its target/classes folder
    Path jar = ShippedJars.jarOf("faultbed.harness.timescale.TimeScaleAgent", dir);
    assertEquals(dir.resolve("faultbed-harness-classes.jar"), jar);
    try (JarFile j = new JarFile(jar.toFile())) {
      assertNotNull(j.getEntry("faultbed/harness/timescale/TimeScaleAgent$HardCoded.class"));
      assertNotNull(j.getEntry("faultbed/harness/remote/ShippedJars.class"));
    }
  }
}
