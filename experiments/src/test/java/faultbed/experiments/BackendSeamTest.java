package faultbed.experiments;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import faultbed.harness.Backend;
import faultbed.harness.Backends;
import faultbed.harness.ClusterSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A backend is one package and one registration line: nothing outside a backend's package uses
 * it, no backend uses another, and everything that lists backends (the schema, the parser's
 * choices, doctor's table) reads the registry.
 */
class BackendSeamTest {
  private static JavaClasses main;
  private static List<String> packages;

  @BeforeAll
  static void load() {
    main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(location -> !location.contains("-tests.jar")) // the modules' test jars
        .importPackages("faultbed");
    packages = Backends.all().stream().map(b -> b.getClass().getPackageName()).toList();
  }

  @Test
  void eachBackendHasAPackageOfItsOwn() {
    assertEquals(packages.size(), new HashSet<>(packages).size(), "two backends share a package: " + packages);
    assertEquals(Backends.names().size(), new HashSet<>(Backends.names()).size(), "two backends share a name");
    for (String p : packages) {
      assertTrue(p.startsWith("faultbed.harness."), p);
      assertFalse(main.getPackage(p).getClasses().isEmpty(), p);
    }
  }

  @Test
  void noCodeOutsideABackendUsesIt() {
    for (String p : packages) {
      List<String> others = new ArrayList<>(packages);
      others.remove(p);
      noClasses().that().resideOutsideOfPackage(p + "..").should().dependOnClassesThat().resideInAPackage(p + "..")
          .because("a backend is reached through its Backend descriptor, registered in META-INF/services")
          .check(main);
    }
  }

  @Test
  void theSchemaNamesEveryRegisteredBackend() throws Exception {
    JsonNode schema = new ObjectMapper().readTree(Files.readString(Path.of("..", "schema", "scenario.schema.json")));
    List<String> named = new ArrayList<>();
    schema.findValues("backend").forEach(b -> b.path("enum").forEach(n -> named.add(n.asText())));
    assertEquals(Backends.names(), named);
  }

  /** The one check every entry point makes: a backend's problems are the cluster's, word for word. */
  @Test
  void preconditionsAreTheBackendsOwn() {
    for (Backend b : Backends.all()) {
      ClusterSpec spec = ClusterSpec.defaults().withBackend(b);
      assertEquals(b.problems(spec), faultbed.experiments.scenario.Preconditions.problems(spec), b.name());
    }
  }
}
