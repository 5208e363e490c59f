package faultbed.harness.observe;

import faultbed.harness.timeline.JobInput;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;

/** A job's input files on HDFS; their blocks and replicas are asked of the NameNode when a fault needs them. */
final class HdfsJobInput implements JobInput {
  private final DistributedFileSystem dfs;
  private final List<Path> inputs;

  private HdfsJobInput(DistributedFileSystem dfs, List<Path> inputs) {
    this.dfs = dfs;
    this.inputs = List.copyOf(inputs);
  }

  /** The input of {@code job}, if it reads files on HDFS ({@code FileInputFormat}'s input paths). */
  static JobInput of(Job job, FileSystem fs) {
    Path[] in = FileInputFormat.getInputPaths(job);
    return fs instanceof DistributedFileSystem d && in.length > 0 ? new HdfsJobInput(d, List.of(in)) : JobInput.NONE;
  }

  @Override
  public List<String> blocksOn(String address) {
    List<String> out = new ArrayList<>();
    try {
      for (Path p : inputs) {
        RemoteIterator<LocatedFileStatus> files = dfs.listFiles(p, true);
        while (files.hasNext()) {
          LocatedFileStatus f = files.next();
          for (LocatedBlock b : dfs.getClient().getLocatedBlocks(f.getPath().toUri().getPath(), 0, f.getLen())
              .getLocatedBlocks()) {
            for (DatanodeInfo d : b.getLocations()) {
              if (d.getIpAddr().equals(address)) {
                out.add(b.getBlock().getBlockName());
              }
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the job input's blocks from the NameNode", e);
    }
    return out;
  }
}
