package faultbed.harness.daemons;

import org.apache.commons.configuration2.SubsetConfiguration;
import org.apache.hadoop.metrics2.MetricsRecord;
import org.apache.hadoop.metrics2.MetricsSink;

/**
 * A metrics sink that keeps nothing. A node's metrics system samples its sources only when it has a
 * sink, and some of Hadoop's decisions read what a sample leaves: HDFS's slow-disk detection compares
 * each volume's latency mean since the last sample ({@code DataNodeVolumeMetrics}, a rate's
 * {@code lastStat}), which without one stays as it was at the start and names no disk. A monitored
 * cluster always has a sink; faultbed's nodes have this one, sampled every 10 s.
 */
public final class DiscardingMetricsSink implements MetricsSink {
  @Override
  public void init(SubsetConfiguration conf) {}

  @Override
  public void putMetrics(MetricsRecord record) {}

  @Override
  public void flush() {}
}
