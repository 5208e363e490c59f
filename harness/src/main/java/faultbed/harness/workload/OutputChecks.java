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
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.lib.partition.HashPartitioner;
import org.apache.hadoop.util.hash.Hash;

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

  /** Records, bytes and a sum of 64-bit record hashes: equal for equal multisets of records. */
  record Digest(long records, long bytes, long hashSum) {
    Digest plus(byte[] key, int keyLength, byte[] value, int valueLength) {
      byte[] both = new byte[keyLength + valueLength];
      System.arraycopy(key, 0, both, 0, keyLength);
      System.arraycopy(value, 0, both, keyLength, valueLength);
      Hash murmur = Hash.getInstance(Hash.MURMUR_HASH);
      long h = ((long) murmur.hash(both, both.length, 0x5eed) << 32) | (murmur.hash(both, both.length, 0xfa17) & 0xffffffffL);
      return new Digest(records + 1, bytes + keyLength + valueLength, hashSum + h);
    }

    @Override
    public String toString() {
      return String.format(Locale.ROOT, "%d records, %d bytes, digest %016x", records, bytes, hashSum);
    }
  }

  static OutputCheck sort(FileSystem fs, Path input, Path output, int reduces) throws IOException {
    String method = "sort: records, bytes and record digest against the input; each part sorted and"
        + " hash-partitioned (SortValidator's checks)";
    Digest expected = (Digest) FROM_INPUT.computeIfAbsent(key(fs, input), k -> {
      try {
        Digest d = new Digest(0, 0, 0);
        for (Path p : parts(fs, input, "part-")) {
          d = readSequence(fs, p, d, -1, 0, new String[1]);
        }
        return d;
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    Digest found = new Digest(0, 0, 0);
    List<Path> outParts = parts(fs, output, "part-");
    String[] wrong = new String[1];
    for (int i = 0; i < outParts.size() && wrong[0] == null; i++) {
      // a map-only job writes its input unsorted
      found = readSequence(fs, outParts.get(i), found, reduces > 0 ? i : -1, reduces, wrong);
    }
    if (wrong[0] == null && reduces > 0 && outParts.size() != reduces) {
      wrong[0] = outParts.size() + " output parts for " + reduces + " reduces";
    }
    if (wrong[0] == null && !found.equals(expected)) {
      wrong[0] = "output " + found + ", input " + expected;
    }
    return new OutputCheck(method, wrong[0] == null, wrong[0] == null ? "as the input: " + found : wrong[0]);
  }

  /** Adds one SequenceFile of BytesWritable pairs to {@code d}; checks order and partition when {@code part >= 0}. */
  private static Digest readSequence(FileSystem fs, Path p, Digest d, int part, int reduces, String[] wrong)
      throws IOException {
    HashPartitioner<BytesWritable, BytesWritable> partitioner = new HashPartitioner<>();
    BytesWritable k = new BytesWritable();
    BytesWritable v = new BytesWritable();
    BytesWritable previous = null;
    try (SequenceFile.Reader reader = new SequenceFile.Reader(fs.getConf(), SequenceFile.Reader.file(p))) {
      while (reader.next(k, v)) {
        if (part >= 0) {
          if (previous != null && previous.compareTo(k) > 0) {
            wrong[0] = p.getName() + " is not sorted: record " + (d.records() + 1) + " comes before the one ahead of it";
            return d;
          }
          if (partitioner.getPartition(k, v, reduces) != part) {
            wrong[0] = p.getName() + " holds a record of partition " + partitioner.getPartition(k, v, reduces);
            return d;
          }
          previous = previous == null ? new BytesWritable() : previous;
          previous.set(k);
        }
        d = d.plus(k.getBytes(), k.getLength(), v.getBytes(), v.getLength());
      }
    }
    return d;
  }

  static OutputCheck wordCount(FileSystem fs, Path input, Path output, int reduces) throws IOException {
    String method = "wordcount: every word's count against counts made from the input; each word once,"
        + " in its hash partition";
    @SuppressWarnings("unchecked")
    Map<String, Long> expected = (Map<String, Long>) FROM_INPUT.computeIfAbsent(key(fs, input), k -> {
      Map<String, Long> counts = new HashMap<>();
      try {
        for (Path p : parts(fs, input, "part-")) {
          try (BufferedReader r = new BufferedReader(new InputStreamReader(fs.open(p), StandardCharsets.UTF_8))) {
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
      try (BufferedReader r = new BufferedReader(new InputStreamReader(fs.open(outParts.get(i)), StandardCharsets.UTF_8))) {
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
