package faultbed.harness.workload;

import faultbed.results.RunRecord.OutputCheck;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringTokenizer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.commons.codec.digest.MurmurHash3;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.lib.partition.HashPartitioner;

/**
 * Checks a finished job's output against its input, read back from HDFS in the harness. The Sort
 * check makes Hadoop's SortValidator's checks (same records and bytes, the same multiset of
 * records by an order-independent digest, every part sorted, every record in the partition
 * {@link HashPartitioner} gives it) without running two more jobs; the word count check compares
 * every word's count with counts made here from the input. What is computed from an input is
 * kept for the next run on the same input.
 */
final class OutputChecks {
  private OutputChecks() {}

  private static final Map<String, Object> FROM_INPUT = new ConcurrentHashMap<>();
  private static final int READ_BUFFER = 1 << 20;

  /** Records, bytes and a sum of 64-bit record hashes: equal for equal multisets of records. */
  record Digest(long records, long bytes, long hashSum) {
    private static final int SEED = 0x5eed;

    /**
     * One pass of MurmurHash3 (128 bits, of which 64 are kept) over the key and one over the value,
     * in place: a record read back costs its bytes once, not a copy and two passes.
     */
    Digest plus(byte[] key, int keyLength, byte[] value, int valueLength) {
      long k = MurmurHash3.hash128x64(key, 0, keyLength, SEED)[0];
      long v = MurmurHash3.hash128x64(value, 0, valueLength, SEED)[0];
      // the key's and the value's hashes mixed so that swapping them, or moving bytes between them, changes it
      long h = k * 0x9E3779B97F4A7C15L + Long.rotateLeft(v, 31) + keyLength;
      return new Digest(records + 1, bytes + keyLength + valueLength, hashSum + h);
    }

    Digest plus(Digest other) {
      return new Digest(records + other.records, bytes + other.bytes, hashSum + other.hashSum);
    }

    @Override
    public String toString() {
      return String.format(Locale.ROOT, "%d records, %d bytes, digest %016x", records, bytes, hashSum);
    }
  }

  /** What reading one part found: its digest, and what was wrong with it (null: nothing). */
  private record PartRead(Digest digest, String wrong) {}

  static OutputCheck sort(FileSystem fs, Path input, Path output, int reduces) throws IOException {
    String method = "sort: records, bytes and record digest against the input; each part sorted and"
        + " hash-partitioned (SortValidator's checks)";
    Digest expected = (Digest) FROM_INPUT.computeIfAbsent(key(fs, input), k -> {
      try {
        return readAll(fs, parts(fs, input, "part-"), false, 0).digest();
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    List<Path> outParts = parts(fs, output, "part-");
    // a map-only job writes its input unsorted
    PartRead read = readAll(fs, outParts, reduces > 0, reduces);
    String wrong = read.wrong();
    Digest found = read.digest();
    if (wrong == null && reduces > 0 && outParts.size() != reduces) {
      wrong = outParts.size() + " output parts for " + reduces + " reduces";
    }
    if (wrong == null && !found.equals(expected)) {
      wrong = "output " + found + ", input " + expected;
    }
    return new OutputCheck(method, wrong == null, wrong == null ? "as the input: " + found : wrong);
  }

  /**
   * The digest of every part, read two at a time (the run is over: nothing of it is measured now),
   * and the first thing wrong in part order; with {@code ordered}, part i must be sorted and hold
   * only partition i.
   */
  private static PartRead readAll(FileSystem fs, List<Path> parts, boolean ordered, int reduces) throws IOException {
    ExecutorService readers = Executors.newFixedThreadPool(Math.max(1, Math.min(2, parts.size())));
    try {
      List<Future<PartRead>> reads = new ArrayList<>();
      for (int i = 0; i < parts.size(); i++) {
        int part = i;
        reads.add(readers.submit(() -> readSequence(fs, parts.get(part), ordered ? part : -1, reduces)));
      }
      Digest d = new Digest(0, 0, 0);
      for (Future<PartRead> f : reads) {
        PartRead r = f.get();
        if (r.wrong() != null) {
          return new PartRead(d, r.wrong());
        }
        d = d.plus(r.digest());
      }
      return new PartRead(d, null);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      throw new IOException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("reading the output back was interrupted");
    } finally {
      readers.shutdownNow();
    }
  }

  /** One SequenceFile of BytesWritable pairs; checks order and partition when {@code part >= 0}. */
  private static PartRead readSequence(FileSystem fs, Path p, int part, int reduces) throws IOException {
    HashPartitioner<BytesWritable, BytesWritable> partitioner = new HashPartitioner<>();
    BytesWritable k = new BytesWritable();
    BytesWritable v = new BytesWritable();
    BytesWritable previous = null;
    Digest d = new Digest(0, 0, 0);
    // large reads: at the default 4 KB, reading back a 64 MB output took most of a second
    try (SequenceFile.Reader reader = new SequenceFile.Reader(fs.getConf(), SequenceFile.Reader.file(p),
        SequenceFile.Reader.bufferSize(READ_BUFFER))) {
      while (reader.next(k, v)) {
        if (part >= 0) {
          if (previous != null && previous.compareTo(k) > 0) {
            return new PartRead(d, p.getName() + " is not sorted: record " + (d.records() + 1)
                + " of the part comes before the one ahead of it");
          }
          if (partitioner.getPartition(k, v, reduces) != part) {
            return new PartRead(d, p.getName() + " holds a record of partition " + partitioner.getPartition(k, v, reduces));
          }
          previous = previous == null ? new BytesWritable() : previous;
          previous.set(k);
        }
        d = d.plus(k.getBytes(), k.getLength(), v.getBytes(), v.getLength());
      }
    }
    return new PartRead(d, null);
  }

  static OutputCheck wordCount(FileSystem fs, Path input, Path output, int reduces) throws IOException {
    String method = "wordcount: every word's count against counts made from the input; each word once,"
        + " in its hash partition";
    @SuppressWarnings("unchecked")
    Map<String, Long> expected = (Map<String, Long>) FROM_INPUT.computeIfAbsent(key(fs, input), k -> {
      Map<String, Long> counts = new HashMap<>();
      try {
        for (Path p : parts(fs, input, "part-")) {
          try (BufferedReader r = new BufferedReader(new InputStreamReader(fs.open(p, READ_BUFFER), StandardCharsets.UTF_8), 1 << 16)) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
              StringTokenizer tokens = new StringTokenizer(line); // as the job's mapper splits
              while (tokens.hasMoreTokens()) {
                counts.merge(tokens.nextToken(), 1L, Long::sum);
              }
            }
          }
        }
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      return Map.copyOf(counts);
    });
    HashPartitioner<Text, IntWritable> partitioner = new HashPartitioner<>();
    Map<String, Long> found = new HashMap<>();
    List<Path> outParts = parts(fs, output, "part-");
    Text word = new Text();
    for (int i = 0; i < outParts.size(); i++) {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(fs.open(outParts.get(i), READ_BUFFER), StandardCharsets.UTF_8), 1 << 16)) {
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          int tab = line.lastIndexOf('\t');
          if (tab < 0) {
            return new OutputCheck(method, false, outParts.get(i).getName() + ": a line without a count: " + line);
          }
          String w = line.substring(0, tab);
          word.set(w);
          if (reduces > 0 && partitioner.getPartition(word, null, reduces) != i) {
            return new OutputCheck(method, false, outParts.get(i).getName() + " holds \"" + w + "\" of partition "
                + partitioner.getPartition(word, null, reduces));
          }
          if (found.put(w, Long.parseLong(line.substring(tab + 1))) != null) {
            return new OutputCheck(method, false, "\"" + w + "\" appears twice in the output");
          }
        }
      }
    }
    for (Map.Entry<String, Long> e : expected.entrySet()) {
      Long n = found.get(e.getKey());
      if (!e.getValue().equals(n)) {
        return new OutputCheck(method, false, "\"" + e.getKey() + "\": " + e.getValue() + " in the input, "
            + (n == null ? "missing from the output" : n + " in the output"));
      }
    }
    if (found.size() != expected.size()) {
      return new OutputCheck(method, false, (found.size() - expected.size()) + " word(s) in the output that the input lacks");
    }
    long total = expected.values().stream().mapToLong(Long::longValue).sum();
    return new OutputCheck(method, true, String.format(Locale.ROOT, "%d distinct words, %d in all, as counted from the input",
        expected.size(), total));
  }

  /** A key that changes when the input's files do. */
  private static String key(FileSystem fs, Path dir) throws IOException {
    StringBuilder sb = new StringBuilder(fs.makeQualified(dir).toString());
    for (Path p : parts(fs, dir, "part-")) {
      FileStatus s = fs.getFileStatus(p);
      sb.append('|').append(p.getName()).append(':').append(s.getLen()).append(':').append(s.getModificationTime());
    }
    return sb.toString();
  }

  private static List<Path> parts(FileSystem fs, Path dir, String prefix) throws IOException {
    List<Path> out = new ArrayList<>();
    for (FileStatus s : fs.listStatus(dir)) {
      if (s.isFile() && s.getPath().getName().startsWith(prefix)) {
        out.add(s.getPath());
      }
    }
    out.sort(null);
    return out;
  }
}
