package faultbed.results.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class SuiteReportTest {
  /** Parses strictly, as XML: a stray '<' or '&' from a record would fail here. */
  private static Document parse(String html) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setNamespaceAware(true);
    return f.newDocumentBuilder().parse(new ByteArrayInputStream(html.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void reportIsOneWellFormedOfflinePageWithEveryChartAndEveryRunsEvidence(@TempDir Path dir) throws Exception {
    SuiteReport.Written w = SuiteReport.write(ReportFixtures.suite(dir));
    assertEquals(6, w.runs());
    String html = Files.readString(w.html());
    Document doc = parse(html);

    NodeList svgs = doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", "svg");
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < svgs.getLength(); i++) {
      Element svg = (Element) svgs.item(i);
      ids.add(svg.getAttribute("id"));
      int marks = svg.getElementsByTagNameNS("*", "path").getLength() + svg.getElementsByTagNameNS("*", "rect").getLength()
          + svg.getElementsByTagNameNS("*", "ellipse").getLength() + svg.getElementsByTagNameNS("*", "line").getLength();
      assertTrue(marks > 20, svg.getAttribute("id") + " draws " + marks + " shapes");
    }
    assertEquals(List.of("figure2", "ecdf", "boxes", "speculative", "wasted"), ids);

    assertFalse(html.contains("<script"), "no script");
    assertFalse(html.contains("<link"), "no external style sheet");
    assertFalse(html.matches("(?s).*(src|href)=\"https?:.*"), "nothing fetched from the network");

    NodeList links = doc.getElementsByTagName("a");
    List<String> targets = new ArrayList<>();
    for (int i = 0; i < links.getLength(); i++) {
      targets.add(((Element) links.item(i)).getAttribute("href"));
    }
    for (String file : List.of("baseline-000.json", "crash-000.json", "crash-003.json", "crash-after-two-maps.json", "runs.csv")) {
      assertTrue(targets.contains(file), file + " linked: " + targets);
      assertTrue(Files.exists(dir.resolve(file)), "link target exists: " + file);
    }

    String text = doc.getDocumentElement().getTextContent();
    assertTrue(text.contains("node LOST at 29.0 s: detection 19.6 s, within the expiry 20.0 s"), "classifier evidence shown");
    assertTrue(text.contains("map output lost: m_000001 finished on node 0 at 13.5 s"), "lost outputs shown");
    assertTrue(text.contains("crash vs baseline"), "comparison against the fault-free variant");
    assertTrue(text.contains("Ratios are variant over baseline (the only variant without faults)"), "the reference and why");
    assertTrue(text.contains("What was run") && text.contains("not recorded (records written before the provenance block)"),
        "what was run, honest about old records");
    assertTrue(text.contains("No variant ran a speculator."), "the backups table says when there is nothing to count");
    assertTrue(text.contains("[45.2, 50.3]"), "median interval of the crash variant");
  }

  /**
   * A reproduction (variants that differ in their faults, not in Hadoop settings) gets one Figure 2
   * per failure variant, as the paper's Figures 2, 4 and 6, and a table setting them beside the paper's.
   */
  @Test
  void aReproductionSetsEachFailureVariantBesideSeed003(@TempDir Path dir) throws Exception {
    Path quickstart = Path.of(SuiteReportTest.class.getResource("/records/quickstart").toURI());
    for (String f : List.of("baseline-000.json", "crash-000.json", "crash-001.json", "crash-002.json")) {
      Files.copy(quickstart.resolve(f), dir.resolve(f));
    }
    // the fourth crash as a variant of its own, as crash-no-rst is beside crash in dinu-ng.json
    Files.writeString(dir.resolve("crash-no-rst-000.json"), Files.readString(quickstart.resolve("crash-003.json"))
        .replace("\"variant\": \"crash\"", "\"variant\": \"crash-no-rst\""));
    Document doc = parse(Files.readString(SuiteReport.write(dir).html()));

    List<String> ids = chartIds(doc);
    assertEquals(List.of("figure2-0", "figure2-1", "ecdf", "boxes", "speculative", "wasted"), ids);

    assertEquals(List.of("", "Dinu and Ng (Hadoop 0.21, 14 nodes)", "crash", "crash-no-rst"), row(doc, "th", ""));
    assertEquals(List.of("runs with a node failure", "200", "3", "1"), row(doc, "td", "runs with a node failure"));
    assertEquals(List.of("failed jobs", "7 of 200", "0 of 3 (Fisher exact p 1 against the paper's)",
        "0 of 1 (Fisher exact p 1 against the paper's)"), row(doc, "td", "failed jobs"));
    assertEquals(List.of("groups", "G1 to G7, and G8 (the failed jobs)", "G6 3", "G6 1"), row(doc, "td", "groups"));
    assertEquals(List.of("0 of 3", "0 of 1"), row(doc, "td", "runs with induced reducer death").subList(2, 4));
    assertEquals(List.of("3 of 3", "1 of 1"), row(doc, "td", "runs that redid work: waited for node expiry").subList(2, 4),
        "the quickstart's crashes waited for the expiry to re-run their running maps");
    assertEquals("20.2 s (median of 1)", row(doc, "td", "fault-free job time").get(2));
    assertTrue(row(doc, "td", "node expiry").get(2).startsWith("20.0 s (0.99 x fault-free)"),
        row(doc, "td", "node expiry").toString());
  }

  /** Groups and Figure 2 describe node failures: a suite whose faults only load nodes shows neither. */
  @Test
  void aSuiteWithoutNodeFailuresHasNoFailureGroups(@TempDir Path dir) throws Exception {
    Path quickstart = Path.of(SuiteReportTest.class.getResource("/records/quickstart").toURI());
    Files.copy(quickstart.resolve("baseline-000.json"), dir.resolve("baseline-000.json"));
    for (String f : List.of("crash-000.json", "crash-001.json")) {
      Files.writeString(dir.resolve(f.replace("crash", "cpu-hog")), Files.readString(quickstart.resolve(f))
          .replace("\"kind\": \"crash\"", "\"kind\": \"cpu-hog\"").replace("\"variant\": \"crash\"", "\"variant\": \"cpu-hog\"")
          // a hog leaves its node up: a node declared unusable under any fault is a node failure
          .replace("\"LOST\"", "\"RUNNING\""));
    }
    String html = Files.readString(SuiteReport.write(dir).html());
    Document doc = parse(html);

    List<String> ids = chartIds(doc);
    assertEquals(List.of("ecdf", "boxes", "speculative", "wasted"), ids);
    String text = doc.getDocumentElement().getTextContent();
    assertFalse(text.contains("Failure groups"), "no groups section");
    assertFalse(text.contains("unclassified"), "no run called unclassified");
    assertTrue(text.contains("no node failure"), "each run says why it has no group");
  }

  /** The ids of the page's inline SVG charts, in page order. */
  private static List<String> chartIds(Document doc) {
    NodeList svgs = doc.getElementsByTagNameNS("http://www.w3.org/2000/svg", "svg");
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < svgs.getLength(); i++) {
      ids.add(((Element) svgs.item(i)).getAttribute("id"));
    }
    return ids;
  }

  /** The cells of the first table row whose first cell (a {@code cell} element) reads {@code label}. */
  private static List<String> row(Document doc, String cell, String label) {
    NodeList rows = doc.getElementsByTagName("tr");
    for (int i = 0; i < rows.getLength(); i++) {
      NodeList cells = ((Element) rows.item(i)).getElementsByTagName(cell);
      if (cells.getLength() > 0 && cells.item(0).getTextContent().equals(label)) {
        List<String> out = new ArrayList<>();
        for (int j = 0; j < cells.getLength(); j++) {
          out.add(cells.item(j).getTextContent());
        }
        return out;
      }
    }
    throw new AssertionError("no row " + label);
  }

  @Test
  void csvHasOneRowPerRunWithItsGroup(@TempDir Path dir) throws Exception {
    SuiteReport.Written w = SuiteReport.write(ReportFixtures.suite(dir));
    List<List<String>> rows = Csv.parse(Files.readString(w.csv()));
    List<String> header = rows.get(0);
    assertEquals(RunsCsv.HEADER, String.join(",", header));
    assertEquals(7, rows.size());
    for (List<String> row : rows.subList(1, rows.size())) {
      assertEquals(header.size(), row.size(), row.toString());
    }
    List<String> crash1 = rows.stream().filter(r -> r.get(0).equals("crash-001")).findFirst().orElseThrow();
    assertEquals("G6", crash1.get(header.indexOf("group")));
    assertEquals("9.402", crash1.get(header.indexOf("failure_s")));
    assertEquals("29.048", crash1.get(header.indexOf("node_unusable_s")));
    assertEquals("2", crash1.get(header.indexOf("reexecuted_attempts")));
    // m_000001_0 and m_000000_0 ran on the crashed node from 5.047 s and 5.095 s until the crash at 9.402 s
    assertEquals(4.355 + 4.307, Double.parseDouble(crash1.get(header.indexOf("wasted_container_s"))), 1e-9);
    assertTrue(crash1.get(header.indexOf("evidence")).contains("crash of node 1 at 9.4 s"));
  }

  @Test
  void aFolderWithoutRecordsIsRefused(@TempDir Path dir) {
    var e = assertThrows(IllegalArgumentException.class, () -> SuiteReport.write(dir));
    assertTrue(e.getMessage().startsWith("expected run records"));
  }

  /** Just enough RFC 4180 to read the report's CSV back: quoted fields, doubled quotes, CRLF rows. */
  static final class Csv {
    static List<List<String>> parse(String text) {
      List<List<String>> rows = new ArrayList<>();
      List<String> row = new ArrayList<>();
      StringBuilder cell = new StringBuilder();
      boolean quoted = false;
      for (int i = 0; i < text.length(); i++) {
        char c = text.charAt(i);
        if (quoted) {
          if (c == '"' && i + 1 < text.length() && text.charAt(i + 1) == '"') {
            cell.append('"');
            i++;
          } else if (c == '"') {
            quoted = false;
          } else {
            cell.append(c);
          }
        } else if (c == '"') {
          quoted = true;
        } else if (c == ',') {
          row.add(cell.toString());
          cell.setLength(0);
        } else if (c == '\r') {
          row.add(cell.toString());
          cell.setLength(0);
          rows.add(row);
          row = new ArrayList<>();
          i++; // the \n
        } else {
          cell.append(c);
        }
      }
      return rows;
    }
  }
}
