package faultbed.results.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import faultbed.results.compare.SampleSet;
import faultbed.results.compare.SuiteComparison;
import faultbed.results.stats.Analysis;
import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Renders the report of real records, and a compare page, in headless Chromium and checks that the
 * charts show; the screenshots stay in target/screenshots.
 */
class ReportScreenshotTest {
  private static final int WIDTH = 1280;
  private static final int HEIGHT = 4200;

  private static Optional<Path> chromium() {
    return Stream.of(System.getenv("PATH").split(File.pathSeparator))
        .flatMap(dir -> Stream.of("chromium", "chromium-browser", "google-chrome").map(n -> Path.of(dir, n)))
        .filter(Files::isExecutable).findFirst();
  }

  /** Screenshots stay with the test output, to be looked at. */
  private static final Path SHOTS = Path.of("target", "screenshots");

  /** Renders {@code html} into {@code png} in headless Chromium; fails on console messages. */
  private static String render(Path browser, Path html, Path png, Path tmp) throws Exception {
    Files.createDirectories(png.getParent());
    return load(browser, html, "--screenshot=" + png.toAbsolutePath(), png.getFileName().toString(), tmp);
  }

  /**
   * Loads {@code html} in headless Chromium, its scripts run, with {@code output} (a screenshot, or
   * the DOM to standard output); fails on console messages.
   */
  private static String load(Path browser, Path html, String result, String name, Path tmp) throws Exception {
    Path log = tmp.resolve(name + ".log");
    Process p = new ProcessBuilder(browser.toString(), "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--user-data-dir=" + Files.createDirectories(tmp.resolve("profile-" + name)),
        "--enable-logging=stderr", "--v=0", result,
        "--window-size=" + WIDTH + "," + HEIGHT, html.toUri().toString())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    assertTrue(p.waitFor(90, TimeUnit.SECONDS), "chromium finished within 90 s");
    String output = Files.readString(log, StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), output);
    // Chromium logs every console message, warnings and errors included, as ":CONSOLE"
    List<String> console = output.lines().filter(l -> l.contains(":CONSOLE")).toList();
    assertTrue(console.isEmpty(), "console messages: " + console);
    assertFalse(output.contains("ERR_FILE_NOT_FOUND"), output);
    return output;
  }

  /**
   * Every published report, as committed, renders without a console message, and its page is the
   * one the records give now (re-rendered after any change to the report).
   */
  @Test
  void everyPublishedReportRendersAndIsCurrent(@TempDir Path tmp) throws Exception {
    Optional<Path> browser = chromium();
    assumeTrue(browser.isPresent(), "no chromium on PATH: install Debian's chromium package to render the report");
    Path published = Path.of("..", "experiments", "published");
    assumeTrue(Files.isDirectory(published), "no published suites beside this module");
    List<Path> pages;
    try (Stream<Path> walk = Files.walk(published)) {
      pages = walk.filter(p -> p.getFileName().toString().equals(SuiteReport.HTML)).sorted().toList();
    }
    assertFalse(pages.isEmpty());
    StringBuilder frames = new StringBuilder("<!DOCTYPE html><html><body>\n");
    for (Path page : pages) {
      assertEquals(Files.readString(page), SuiteReport.html(page.getParent(), SuiteReport.rows(page.getParent())),
          page + " is not what the records give now: re-render it with faultbed report");
      frames.append("<iframe width=\"1280\" height=\"800\" src=\"").append(page.toAbsolutePath().normalize().toUri())
          .append("\"></iframe>\n");
    }
    // every page loaded in one browser, scripts and all, and not drawn: a browser and a 1280 x 4200
    // screenshot per page took 3.5 s each; the two tests below check what the drawing shows
    Path all = Files.writeString(tmp.resolve("published.html"), frames.append("</body></html>\n"));
    String log = load(browser.get(), all, "--dump-dom", "published", tmp);
    assertTrue(log.contains("<iframe"), log);
  }

  @Test
  void comparePageShowsBothSidesBoxes(@TempDir Path tmp) throws Exception {
    Optional<Path> browser = chromium();
    assumeTrue(browser.isPresent(), "no chromium on PATH: install Debian's chromium package to render the report");
    SampleSet quickstart = SampleSet.read(Path.of(ReportScreenshotTest.class.getResource("/records/quickstart").toURI()));
    SuiteComparison c = SuiteComparison.allAgainst(quickstart, "baseline", quickstart, Analysis.DEFAULT);
    Path png = SHOTS.resolve("compare.png");
    render(browser.get(), ComparePage.write(tmp.resolve("compare.html"), c, quickstart, quickstart), png, tmp);
    BufferedImage image = ImageIO.read(png.toFile());
    long boxFill = 0;
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        boxFill += near(image.getRGB(x, y) & 0xffffff, 0x9ecae1) ? 1 : 0;
      }
    }
    assertTrue(boxFill > 500, "box plot pixels " + boxFill);
  }

  @Test
  void reportRendersWithVisibleChartsAndNoConsoleErrors(@TempDir Path tmp) throws Exception {
    Optional<Path> browser = chromium();
    assumeTrue(browser.isPresent(), "no chromium on PATH: install Debian's chromium package to render the report");
    Path suite = Files.createDirectory(tmp.resolve("suite"));
    Path html = SuiteReport.write(ReportFixtures.suite(suite)).html();
    Path png = SHOTS.resolve("report.png");
    render(browser.get(), html, png, tmp);

    BufferedImage image = ImageIO.read(png.toFile());
    assertEquals(WIDTH, image.getWidth());
    Set<Integer> colours = new HashSet<>();
    long nonWhite = 0;
    long boxFill = 0;
    long bars = 0;
    long g6 = 0;
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        int rgb = image.getRGB(x, y) & 0xffffff;
        colours.add(rgb);
        nonWhite += rgb == 0xffffff ? 0 : 1;
        boxFill += near(rgb, 0x9ecae1) ? 1 : 0;
        bars += near(rgb, 0x6baed6) ? 1 : 0;
        g6 += near(rgb, 0xff7f0e) ? 1 : 0;
      }
    }
    double inked = nonWhite / (double) (image.getWidth() * image.getHeight());
    assertTrue(inked > 0.03, "share of non-white pixels " + inked);
    assertTrue(colours.size() > 200, colours.size() + " distinct colours");
    // colours drawn only by the charts: the box plot's boxes, the wasted-work bars, the G6 points and ECDF line
    assertTrue(boxFill > 500, "box plot pixels " + boxFill);
    assertTrue(bars > 500, "bar chart pixels " + bars);
    assertTrue(g6 > 300, "G6 pixels " + g6);
  }

  private static boolean near(int rgb, int target) {
    int dr = ((rgb >> 16) & 0xff) - ((target >> 16) & 0xff);
    int dg = ((rgb >> 8) & 0xff) - ((target >> 8) & 0xff);
    int db = (rgb & 0xff) - (target & 0xff);
    return Math.abs(dr) <= 6 && Math.abs(dg) <= 6 && Math.abs(db) <= 6;
  }
}
