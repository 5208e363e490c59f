package faultbed.results.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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

/** Renders the report of real records in headless Chromium and checks that the charts show. */
class ReportScreenshotTest {
  private static final int WIDTH = 1280;
  private static final int HEIGHT = 4200;

  private static Optional<Path> chromium() {
    return Stream.of(System.getenv("PATH").split(File.pathSeparator))
        .flatMap(dir -> Stream.of("chromium", "chromium-browser", "google-chrome").map(n -> Path.of(dir, n)))
        .filter(Files::isExecutable).findFirst();
  }

  @Test
  void reportRendersWithVisibleChartsAndNoConsoleErrors(@TempDir Path tmp) throws Exception {
    Optional<Path> browser = chromium();
    assumeTrue(browser.isPresent(), "no chromium on PATH: install Debian's chromium package to render the report");
    Path suite = Files.createDirectory(tmp.resolve("suite"));
    Path html = SuiteReport.write(ReportFixtures.suite(suite)).html();
    Path png = tmp.resolve("report.png");
    Path log = tmp.resolve("chromium.log");

    Process p = new ProcessBuilder(browser.get().toString(), "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--user-data-dir=" + Files.createDirectory(tmp.resolve("profile")),
        "--enable-logging=stderr", "--v=0", "--screenshot=" + png, "--window-size=" + WIDTH + "," + HEIGHT,
        html.toUri().toString())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    assertTrue(p.waitFor(90, TimeUnit.SECONDS), "chromium finished within 90 s");
    String output = Files.readString(log, StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), output);
    // Chromium logs every console message, warnings and errors included, as ":CONSOLE"
    List<String> console = output.lines().filter(l -> l.contains(":CONSOLE")).toList();
    assertTrue(console.isEmpty(), "console messages: " + console);

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
    assertFalse(output.contains("ERR_FILE_NOT_FOUND"), output);
  }

  private static boolean near(int rgb, int target) {
    int dr = ((rgb >> 16) & 0xff) - ((target >> 16) & 0xff);
    int dg = ((rgb >> 8) & 0xff) - ((target >> 8) & 0xff);
    int db = (rgb & 0xff) - (target & 0xff);
    return Math.abs(dr) <= 6 && Math.abs(dg) <= 6 && Math.abs(db) <= 6;
  }
}
