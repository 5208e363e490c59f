package faultbed.harness.workload;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Writes a workload's input once per seed: {@code parts} files under {@code dir/input}, then a
 * {@value #MARKER} file holding the total size. A directory without the marker is the remains of
 * an interrupted prepare and is rewritten from scratch.
 */
final class GeneratedInput {
  static final String MARKER = "_COMPLETE";
  static final String INPUT = "input";

  /** Writes one part file of about {@code targetBytes} from its own random stream. */
  @FunctionalInterface
  interface PartWriter {
    void write(FSDataOutputStream out, long targetBytes, SplittableRandom random)
        throws IOException;
  }

  private GeneratedInput() {}

  /** {@code dataRoot/<type>-b<bytes>-m<maps>-s<seed>}; reduces are left out so they share input. */
  static Path dataDir(Path dataRoot, String type, long bytes, int maps, long dataSeed) {
    return new Path(dataRoot, type + "-b" + bytes + "-m" + maps + "-s" + dataSeed);
  }

  static Path inputDir(Path dataDir) {
    return new Path(dataDir, INPUT);
  }

  static String partName(int index) {
    return String.format("part-%05d", index);
  }

  /**
   * Returns the stored size if the input is complete, otherwise writes it. Part {@code i} gets the
   * {@code i}-th split of {@code random}, so the content depends only on the seed and the sizes.
   */
  static long prepare(FileSystem fs, Path dataDir, long bytes, int parts, SplittableRandom random,
      PartWriter writer) throws IOException {
    Path marker = new Path(dataDir, MARKER);
    long stored = readMarker(fs, marker);
    if (stored >= 0) {
      return stored;
    }
    if (fs.exists(dataDir) && !fs.delete(dataDir, true)) {
      throw new IOException("cannot delete incomplete input " + dataDir);
    }
    Path input = inputDir(dataDir);
    if (!fs.mkdirs(input)) {
      throw new IOException("cannot create " + input);
    }
    int bufferSize = fs.getConf().getInt("io.file.buffer.size", 64 * 1024);
    long total = 0;
    for (int i = 0; i < parts; i++) {
      Path part = new Path(input, partName(i));
      long target = bytes / parts + (i < bytes % parts ? 1 : 0);
      SplittableRandom partRandom = random.split();
      try (FSDataOutputStream out = fs.create(part, true, bufferSize,
          fs.getDefaultReplication(part), fs.getDefaultBlockSize(part))) {
        writer.write(out, target, partRandom);
      }
      total += fs.getFileStatus(part).getLen();
    }
    try (OutputStream out = fs.create(marker, true)) {
      out.write((total + "\n").getBytes(StandardCharsets.UTF_8));
    }
    return total;
  }

  /** The size stored in the marker, or -1 if there is no usable marker. */
  private static long readMarker(FileSystem fs, Path marker) throws IOException {
    if (!fs.exists(marker)) {
      return -1;
    }
    try (InputStream in = fs.open(marker)) {
      return Long.parseLong(new String(in.readAllBytes(), StandardCharsets.UTF_8).trim());
    } catch (NumberFormatException e) {
      // A marker cut short by a crash: regenerate rather than trust it.
      return -1;
    }
  }
}
