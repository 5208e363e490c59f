package faultbed.results.report;

import faultbed.results.Distribution;
import faultbed.results.classify.Classification;
import faultbed.results.classify.DetectionTradeoff;
import faultbed.results.classify.DinuNgGroup;
import faultbed.results.stats.Ecdf;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Rectangle;
import java.awt.geom.Ellipse2D;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.BoxAndWhiskerRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.renderer.xy.XYStepRenderer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.statistics.BoxAndWhiskerItem;
import org.jfree.data.statistics.DefaultBoxAndWhiskerCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.svg.SVGGraphics2D;
import org.jfree.svg.ViewBox;

/** The report's charts, drawn by JFreeChart into inline SVG. */
final class Charts {
  static final int WIDTH = 880;
  static final int HEIGHT = 440;
  private static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 15);
  private static final Color GRID = new Color(0xdddddd);

  static {
    // charts are drawn without a display; set before any AWT class loads
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
  }

  private Charts() {}

  /** Seed 003's Figure 2: job completion time against failure time, one colour per group; {@code of}: whose runs, or "". */
  static String jobTimeAgainstFailureTime(String id, String of, List<Classification> runs, Double faultFreeMedianSeconds) {
    return jobTimeAgainstFailureTime(id, of, runs, faultFreeMedianSeconds, runs);
  }

  /** As above, with both axes spanning {@code scale}'s runs, so charts of parts of one suite compare by eye. */
  static String jobTimeAgainstFailureTime(String id, String of, List<Classification> runs, Double faultFreeMedianSeconds,
      List<Classification> scale) {
    XYSeriesCollection data = new XYSeriesCollection();
    List<Color> colours = new ArrayList<>();
    for (DinuNgGroup g : DinuNgGroup.values()) {
      XYSeries s = new XYSeries(g.label(), false, true);
      runs.stream().filter(c -> c.group() == g && c.failureMs() != null && c.jobMs() != null)
          .forEach(c -> s.add(c.failureMs() / 1000.0, c.jobMs() / 1000.0));
      if (!s.isEmpty()) {
        data.addSeries(s);
        colours.add(Palette.group(g));
      }
    }
    JFreeChart chart = ChartFactory.createScatterPlot("Job time against failure time, by Dinu-Ng group"
        + (of.isEmpty() ? "" : ": " + of),
        "failure injected (s after submission)", "job completion time (s)", data, PlotOrientation.VERTICAL,
        true, false, false);
    XYPlot plot = dots(style(chart).getXYPlot(), colours, 10);
    includeZero(plot);
    if (scale != runs) {
      double x = scale.stream().filter(c -> c.failureMs() != null).mapToLong(Classification::failureMs).max().orElse(0);
      double y = scale.stream().filter(c -> c.jobMs() != null).mapToLong(Classification::jobMs).max().orElse(0);
      if (x > 0 && y > 0) {
        plot.getDomainAxis().setRange(0, x / 1000.0 * 1.05);
        plot.getRangeAxis().setRange(0, y / 1000.0 * 1.05);
      }
    }
    if (faultFreeMedianSeconds != null) {
      ValueMarker m = new ValueMarker(faultFreeMedianSeconds, new Color(0x555555),
          new BasicStroke(1.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 1, new float[] {6, 4}, 0));
      m.setLabel(String.format("fault-free median %.1f s", faultFreeMedianSeconds));
      m.setLabelAnchor(RectangleAnchor.TOP_LEFT);
      m.setLabelTextAnchor(TextAnchor.BOTTOM_LEFT);
      m.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
      plot.addRangeMarker(m);
    }
    return svg(chart, id);
  }

  /**
   * The sweep's trade-off: per setting, the median job time under a crash (x) against the median job
   * time under a freeze (y). A setting that reacts faster moves left; what it costs when the node was
   * only stalled moves it up.
   */
  static String tradeoff(DetectionTradeoff t) {
    List<String> kinds = t.faultKinds();
    // the kind that only stalls the node (a freeze) against one that kills it (a crash)
    String freeze = kinds.stream().filter(k -> t.points(k).get(0).faultEffect().stallsNode()).findFirst()
        .orElse(kinds.get(kinds.size() - 1));
    String crash = kinds.stream().filter(k -> !k.equals(freeze)).findFirst().orElseThrow();
    XYSeriesCollection data = new XYSeriesCollection();
    for (DetectionTradeoff.Point c : t.points(crash)) {
      t.points(freeze).stream().filter(f -> f.setting().equals(c.setting())).findFirst()
          .filter(f -> c.jobSeconds().n() > 0 && f.jobSeconds().n() > 0).ifPresent(f -> {
            XYSeries s = new XYSeries(c.setting(), false, true);
            s.add(c.jobSeconds().median(), f.jobSeconds().median());
            data.addSeries(s);
          });
    }
    JFreeChart chart = ChartFactory.createScatterPlot("Job time under a " + crash + " against under a " + freeze
        + ", per setting", "median job time under the " + crash + " (s)", "median job time under the " + freeze + " (s)",
        data, PlotOrientation.VERTICAL, true, false, false);
    List<Color> colours = new ArrayList<>();
    for (int i = 0; i < data.getSeriesCount(); i++) {
      colours.add(Palette.variant(i));
    }
    XYPlot plot = dots(style(chart).getXYPlot(), colours, 12);
    // not from zero: the differences between settings are a few seconds on a job of tens
    ((NumberAxis) plot.getDomainAxis()).setAutoRangeIncludesZero(false);
    ((NumberAxis) plot.getRangeAxis()).setAutoRangeIncludesZero(false);
    return svg(chart, "tradeoff");
  }

  /** One empirical CDF per variant, as steps. */
  static String ecdf(Map<String, double[]> timesByVariant) {
    XYSeriesCollection data = new XYSeriesCollection();
    for (var e : timesByVariant.entrySet()) {
      XYSeries s = new XYSeries(e.getKey(), false, true);
      List<Ecdf.Point> points = Ecdf.of(e.getValue()).points();
      if (!points.isEmpty()) {
        s.add(points.get(0).value(), 0.0);
      }
      points.forEach(p -> s.add(p.value(), p.fraction()));
      data.addSeries(s);
    }
    JFreeChart chart = ChartFactory.createXYLineChart("Completion time, empirical CDF per variant",
        "job completion time (s)", "share of successful runs at or below", data, PlotOrientation.VERTICAL,
        true, false, false);
    XYPlot plot = style(chart).getXYPlot();
    XYStepRenderer renderer = new XYStepRenderer();
    for (int i = 0; i < data.getSeriesCount(); i++) {
      renderer.setSeriesPaint(i, Palette.variant(i));
      renderer.setSeriesStroke(i, new BasicStroke(2.2f));
    }
    plot.setRenderer(renderer);
    ((NumberAxis) plot.getRangeAxis()).setRange(0, 1.02);
    ((NumberAxis) plot.getDomainAxis()).setAutoRangeIncludesZero(true);
    return svg(chart, "ecdf");
  }

  /**
   * Box plots across variants, from R-7 quartiles so they agree with the tables; whiskers reach the
   * furthest value within 1.5 IQR of the box, values beyond are drawn as outliers.
   */
  static String boxes(Map<String, double[]> timesByVariant) {
    DefaultBoxAndWhiskerCategoryDataset data = new DefaultBoxAndWhiskerCategoryDataset();
    for (var e : timesByVariant.entrySet()) {
      double[] v = e.getValue().clone();
      if (v.length == 0) {
        continue;
      }
      Arrays.sort(v);
      Distribution d = Distribution.of(v);
      double q1 = Distribution.quantile(v, 25);
      double q3 = Distribution.quantile(v, 75);
      double fence = 1.5 * (q3 - q1);
      double lowWhisker = Arrays.stream(v).filter(x -> x >= q1 - fence).min().orElse(q1);
      double highWhisker = Arrays.stream(v).filter(x -> x <= q3 + fence).max().orElse(q3);
      List<Double> outliers = Arrays.stream(v).filter(x -> x < lowWhisker || x > highWhisker).boxed().toList();
      data.add(new BoxAndWhiskerItem(d.mean(), d.median(), q1, q3, lowWhisker, highWhisker, d.min(), d.max(),
          outliers), "completion time", e.getKey());
    }
    JFreeChart chart = ChartFactory.createBoxAndWhiskerChart("Completion time across variants",
        "variant", "job completion time (s)", data, false);
    CategoryPlot plot = style(chart).getCategoryPlot();
    BoxAndWhiskerRenderer renderer = (BoxAndWhiskerRenderer) plot.getRenderer();
    renderer.setSeriesPaint(0, new Color(0x9ecae1));
    renderer.setDefaultOutlinePaint(new Color(0x08519c));
    renderer.setUseOutlinePaintForWhiskers(true);
    renderer.setMeanVisible(false);
    renderer.setMaximumBarWidth(0.12);
    ((NumberAxis) plot.getRangeAxis()).setAutoRangeIncludesZero(true);
    return svg(chart, "boxes");
  }

  /** One bar per variant. */
  static String bars(String id, String title, String valueLabel, Map<String, Double> valueByVariant) {
    DefaultCategoryDataset data = new DefaultCategoryDataset();
    valueByVariant.forEach((variant, value) -> data.addValue(value, valueLabel, variant));
    JFreeChart chart = ChartFactory.createBarChart(title, "variant", valueLabel, data,
        PlotOrientation.VERTICAL, false, false, false);
    CategoryPlot plot = style(chart).getCategoryPlot();
    BarRenderer renderer = (BarRenderer) plot.getRenderer();
    renderer.setBarPainter(new StandardBarPainter());
    renderer.setShadowVisible(false);
    renderer.setSeriesPaint(0, new Color(0x6baed6));
    renderer.setMaximumBarWidth(0.12);
    NumberAxis axis = (NumberAxis) plot.getRangeAxis();
    if (valueByVariant.values().stream().allMatch(v -> v == 0)) {
      axis.setRange(0, 1); // an all-zero axis would otherwise span +-5e-9
    }
    return svg(chart, id, WIDTH / 2 - 10, HEIGHT - 80);
  }

  private static JFreeChart style(JFreeChart chart) {
    chart.setBackgroundPaint(Color.WHITE);
    chart.getTitle().setFont(TITLE);
    var plot = chart.getPlot();
    plot.setBackgroundPaint(Color.WHITE);
    if (plot instanceof XYPlot xy) {
      xy.setDomainGridlinePaint(GRID);
      xy.setRangeGridlinePaint(GRID);
    } else if (plot instanceof CategoryPlot cat) {
      cat.setRangeGridlinePaint(GRID);
      // Variant names are the labels. Many or long ones lay the chart on its side, one row per
      // variant with the names at the left, rather than JFreeChart cutting them to "..." (rotated
      // labels would come out as glyph outlines, half a megabyte of SVG and no selectable text).
      List<?> categories = cat.getCategories() == null ? List.of() : cat.getCategories();
      int longest = categories.stream().mapToInt(c -> c.toString().length()).max().orElse(0);
      CategoryAxis axis = cat.getDomainAxis();
      axis.setMaximumCategoryLabelLines(3);
      if (categories.size() > 4 || longest > 14) {
        cat.setOrientation(PlotOrientation.HORIZONTAL);
        axis.setMaximumCategoryLabelWidthRatio(0.5f);
      }
    }
    return chart;
  }

  /** Points only, series i drawn as a dot of {@code colours.get(i)}. */
  private static XYPlot dots(XYPlot plot, List<Color> colours, double size) {
    XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(false, true);
    for (int i = 0; i < colours.size(); i++) {
      renderer.setSeriesPaint(i, colours.get(i));
      renderer.setSeriesShape(i, new Ellipse2D.Double(-size / 2, -size / 2, size, size));
    }
    plot.setRenderer(renderer);
    return plot;
  }

  private static void includeZero(XYPlot plot) {
    ((NumberAxis) plot.getDomainAxis()).setAutoRangeIncludesZero(true);
    ((NumberAxis) plot.getRangeAxis()).setAutoRangeIncludesZero(true);
  }

  private static String svg(JFreeChart chart, String id) {
    return svg(chart, id, WIDTH, HEIGHT);
  }

  private static String svg(JFreeChart chart, String id, int width, int height) {
    SVGGraphics2D g = new SVGGraphics2D(width, height);
    g.setDefsKeyPrefix(id + "-");
    chart.draw(g, new Rectangle(0, 0, width, height));
    return g.getSVGElement(id, true, new ViewBox(0, 0, width, height), null, null);
  }
}
