package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.experiments.cli.FaultbedCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * The POM rules Maven Central applies (which JReleaser's dry run does not check here: its checker is
 * a download from GitHub), held on faultbed's own POMs: every published POM has a name, a
 * description, and, itself or through the parent, a URL, a license, developers and SCM; no POM adds
 * repositories. And what a user's build imports: the BOM lists every published module and pins
 * Jackson where the parent does.
 */
class ArtifactsTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  @Test
  void everyPublishedPomCarriesWhatMavenCentralRequires() throws Exception {
    Element parent = pom(ROOT.resolve("pom.xml"));
    for (String field : List.of("url", "licenses", "developers", "scm")) {
      assertFalse(child(parent, field).isEmpty(), "the parent POM has no " + field);
    }
    Element bom = pom(ROOT.resolve("bom/pom.xml"));
    for (String field : List.of("name", "description", "url", "licenses", "developers", "scm")) {
      assertFalse(child(bom, field).isEmpty(), "the BOM (no parent) has no " + field);
    }
    for (String module : modules(parent)) {
      Element p = pom(ROOT.resolve(module).resolve("pom.xml"));
      assertFalse(child(p, "name").isEmpty(), module + ": no name");
      assertFalse(child(p, "description").isEmpty(), module + ": no description");
      assertTrue(child(p, "repositories").isEmpty(), module + ": a published POM must not add repositories");
    }
  }

  @Test
  void theBomListsEveryPublishedModuleAndPinsTheParentsJackson() throws Exception {
    Element parent = pom(ROOT.resolve("pom.xml"));
    Set<String> published = new TreeSet<>();
    for (String module : modules(parent)) {
      Element p = pom(ROOT.resolve(module).resolve("pom.xml"));
      if (!module.equals("bom")) {
        published.add(child(p, "artifactId"));
      }
    }
    Element bom = pom(ROOT.resolve("bom/pom.xml"));
    Set<String> listed = new TreeSet<>();
    String jackson = null;
    for (Element d : all(bom, "dependency")) {
      String group = child(d, "groupId");
      if (group.equals("dev.faultbed")) {
        listed.add(child(d, "artifactId"));
      } else if (child(d, "artifactId").equals("jackson-bom")) {
        jackson = child(d, "version");
      }
    }
    assertEquals(published, listed, "the BOM's faultbed artifacts");
    assertEquals(child((Element) parent.getElementsByTagName("properties").item(0), "jackson.version"), jackson,
        "the BOM's Jackson and the parent's");
    assertEquals(child(parent, "version"), child(bom, "version"), "the BOM's version and the parent's");
  }

  @Test
  void versionNamesFaultbedHadoopAndJava() {
    StringWriter out = new StringWriter();
    assertEquals(0, FaultbedCli.execute(new PrintWriter(out, true), new PrintWriter(new StringWriter(), true),
        "--version"));
    String[] lines = out.toString().split("\n");
    assertEquals(3, lines.length, out.toString());
    assertTrue(lines[0].startsWith("faultbed ") && !lines[0].contains("${"), lines[0]);
    assertTrue(lines[1].matches("Hadoop 3\\.[0-9.]+"), lines[1]);
    assertTrue(lines[2].startsWith("Java ") && lines[2].contains(System.getProperty("java.runtime.version")), lines[2]);
  }

  private static Element pom(Path file) throws Exception {
    assertTrue(Files.isRegularFile(file), file.toString());
    Document d = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile());
    return d.getDocumentElement();
  }

  private static List<String> modules(Element parent) {
    List<String> out = new ArrayList<>();
    for (Element m : all(parent, "module")) {
      out.add(m.getTextContent().trim());
    }
    return out;
  }

  /** The text of a direct child, or "" without one. */
  private static String child(Element e, String name) {
    for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element c && c.getTagName().equals(name)) {
        return c.getTextContent().trim();
      }
    }
    return "";
  }

  private static List<Element> all(Element e, String name) {
    List<Element> out = new ArrayList<>();
    var list = e.getElementsByTagName(name);
    for (int i = 0; i < list.getLength(); i++) {
      out.add((Element) list.item(i));
    }
    return out;
  }
}
