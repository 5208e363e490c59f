package faultbed.harness.daemons;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BandwidthProbeTest {
  @Test
  void aProbeTakesAboutATenthOfASecondOfItsLinksForecastWithinBounds() {
    assertEquals(BandwidthProbe.MIN_PROBE_BYTES, BandwidthProbe.probeBytes(Double.NaN), "nothing known yet");
    assertEquals(BandwidthProbe.MIN_PROBE_BYTES, BandwidthProbe.probeBytes(100_000), "a slow link: the smallest probe");
    assertEquals(1_000_000, BandwidthProbe.probeBytes(10_000_000));
    assertEquals(BandwidthProbe.MAX_PROBE_BYTES, BandwidthProbe.probeBytes(1e10), "a fast link: the largest");
  }
}
