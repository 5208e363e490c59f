package faultbed.harness.daemons;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BandwidthForecastTest {
  @Test
  void nothingMeasuredIsNoForecastAndOneMeasurementIsItself() {
    BandwidthForecast f = new BandwidthForecast();
    assertTrue(Double.isNaN(f.forecast()));
    f.add(1000);
    assertEquals(1000, f.forecast());
  }

  @Test
  void aNoisySteadyLinkIsForecastNearItsMeanNotItsLastValue() {
    BandwidthForecast f = new BandwidthForecast();
    double[] noisy = {900, 1100, 950, 1050, 900, 1100, 950, 1050, 900, 1100, 950, 1500};
    for (double d : noisy) {
      f.add(d);
    }
    // the last value (1500) has been the worst predictor of a link that swings about 1000
    assertTrue(Math.abs(f.forecast() - 1000) < 150, "forecast " + f.forecast());
  }

  @Test
  void aLinkThatDropsIsForecastByItsRecentValues() {
    BandwidthForecast f = new BandwidthForecast();
    for (int i = 0; i < 20; i++) {
      f.add(100e6);
    }
    for (int i = 0; i < 10; i++) {
      f.add(1e6);
    }
    // the mean of all (about 67 MB/s) has been wrong by ~66 MB/s on each of the last ten; the last
    // value and the window not at all for the last five
    assertEquals(1e6, f.forecast(), 1);
    assertEquals(30, f.measurements());
  }
}
