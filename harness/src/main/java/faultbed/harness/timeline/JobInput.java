package faultbed.harness.timeline;

import java.util.List;

/** A run's job input as HDFS holds it: its blocks, and which DataNodes have a replica of each. */
public interface JobInput {
  /** No input on HDFS (a synthetic job), or none known. */
  JobInput NONE = address -> List.of();

  /** The input's blocks with a replica on the DataNode at {@code address}, by name ("blk_1073741825"), in file order. */
  List<String> blocksOn(String address);
}
