package faultbed.harness.daemons;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;

/**
 * A forecast of one link's bandwidth from its past measurements, as the Network Weather Service
 * makes one (Wolski, Spring and Hayes, 1999): several simple predictors run side by side (the last
 * value, the mean of all, the mean and the median of a sliding window), each is scored by its
 * error on every measurement before it was known, and the forecast is the prediction of the one
 * with the least mean absolute error so far. A steady link is forecast by its mean, a link whose
 * rate just changed by its recent values.
 */
final class BandwidthForecast {
  static final int WINDOW = 5;
  private static final int PREDICTORS = 4;

  private final Deque<Double> window = new ArrayDeque<>();
  private final double[] absoluteError = new double[PREDICTORS];
  private double sum;
  private int count;
  private int scored;

  /** Adds a measurement, scoring every predictor on it first. */
  synchronized void add(double bytesPerSecond) {
    if (count > 0) {
      double[] p = predictions();
      for (int i = 0; i < PREDICTORS; i++) {
        absoluteError[i] += Math.abs(p[i] - bytesPerSecond);
      }
      scored++;
    }
    sum += bytesPerSecond;
    count++;
    window.addLast(bytesPerSecond);
    if (window.size() > WINDOW) {
      window.removeFirst();
    }
  }

  /** The forecast, NaN before the first measurement. */
  synchronized double forecast() {
    if (count == 0) {
      return Double.NaN;
    }
    double[] p = predictions();
    int best = 0;
    for (int i = 1; i < PREDICTORS && scored > 0; i++) {
      if (absoluteError[i] < absoluteError[best]) {
        best = i;
      }
    }
    return p[best];
  }

  synchronized int measurements() {
    return count;
  }

  private double[] predictions() {
    double[] w = window.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    double median = w.length % 2 == 1 ? w[w.length / 2] : (w[w.length / 2 - 1] + w[w.length / 2]) / 2;
    return new double[] {window.getLast(), sum / count, Arrays.stream(w).average().orElseThrow(), median};
  }
}
