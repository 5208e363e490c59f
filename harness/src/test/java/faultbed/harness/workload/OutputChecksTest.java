package faultbed.harness.workload;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.results.RunRecord.OutputCheck;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.StringTokenizer;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.lib.partition.HashPartitioner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The output checks on input the workloads generate and output written here as the job would
 * write it: the right output passes, and each kind of wrong output (a record lost, out of order,
 * changed, in the wrong partition; a word miscounted) fails and says what it found.
 */
class OutputChecksTest {
  private static final int REDUCES = 3;

  private static FileSystem local() throws IOException {
    return FileSystem.getLocal(new Configuration());
  }

  private static List<BytesWritable[]> records(FileSystem fs, Path dir) throws IOException {
    List<BytesWritable[]> all = new ArrayList<>();
    for (FileStatus s : fs.listStatus(dir)) {
      if (!s.getPath().getName().startsWith("part-")) {
        continue;
      }
      try (SequenceFile.Reader r = new SequenceFile.Reader(fs.getConf(), SequenceFile.Reader.file(s.getPath()))) {
        BytesWritable k = new BytesWritable();
        BytesWritable v = new BytesWritable();
        while (r.next(k, v)) {
          all.add(new BytesWritable[] {new BytesWritable(k.copyBytes()), new BytesWritable(v.copyBytes())});
        }
      }
    }
    return all;
  }

  /** Writes the records as Sort's reduces would: hash-partitioned, each part sorted; {@code edit} changes each part first. */
  private static Path sortOutput(FileSystem fs, Path out, List<BytesWritable[]> records,
      UnaryOperator<List<BytesWritable[]>> edit) throws IOException {
    HashPartitioner<BytesWritable, BytesWritable> partitioner = new HashPartitioner<>();
    for (int p = 0; p < REDUCES; p++) {
      int part = p;
      List<BytesWritable[]> mine = new ArrayList<>(records.stream()
          .filter(r -> partitioner.getPartition(r[0], r[1], REDUCES) == part).toList());
      mine.sort((a, b) -> a[0].compareTo(b[0]));
      try (SequenceFile.Writer w = SequenceFile.createWriter(fs.getConf(),
          SequenceFile.Writer.file(new Path(out, String.format("part-r-%05d", p))),
          SequenceFile.Writer.keyClass(BytesWritable.class), SequenceFile.Writer.valueClass(BytesWritable.class))) {
        for (BytesWritable[] r : part == 1 ? edit.apply(mine) : mine) {
          w.append(r[0], r[1]);
        }
      }
    }
    return out;
  }

  @Test
  void sortOutputIsRightOnlyWhenItHoldsTheInputsRecordsSortedInTheirPartitions(@TempDir java.nio.file.Path tmp)
      throws IOException {
    FileSystem fs = local();
    Path root = new Path(tmp.toUri());
    SortWorkload sort = new SortWorkload(200_000, 2, REDUCES);
    sort.prepare(fs, root, 7);
    List<BytesWritable[]> input = records(fs, sort.inputDir(root, 7));

    OutputCheck right = OutputChecks.sort(fs, sort.inputDir(root, 7), sortOutput(fs, new Path(root, "ok"), input, l -> l),
        REDUCES);
    assertTrue(right.correct(), right.detail());
    assertTrue(right.detail().startsWith("as the input: " + input.size() + " records"), right.detail());

    OutputCheck lost = OutputChecks.sort(fs, sort.inputDir(root, 7),
        sortOutput(fs, new Path(root, "lost"), input, l -> l.subList(1, l.size())), REDUCES);
    assertFalse(lost.correct());
    assertTrue(lost.detail().contains((input.size() - 1) + " records"), lost.detail());

    OutputCheck unsorted = OutputChecks.sort(fs, sort.inputDir(root, 7), sortOutput(fs, new Path(root, "unsorted"), input,
        l -> {
          List<BytesWritable[]> swapped = new ArrayList<>(l);
          swapped.set(0, l.get(1));
          swapped.set(1, l.get(0));
          return swapped;
        }), REDUCES);
    assertFalse(unsorted.correct());
    assertTrue(unsorted.detail().contains("part-r-00001 is not sorted"), unsorted.detail());

    OutputCheck changed = OutputChecks.sort(fs, sort.inputDir(root, 7), sortOutput(fs, new Path(root, "changed"), input,
        l -> {
          List<BytesWritable[]> copy = new ArrayList<>(l);
          byte[] value = l.get(0)[1].copyBytes();
          value[0] ^= 1;
          copy.set(0, new BytesWritable[] {l.get(0)[0], new BytesWritable(value)});
          return copy;
        }), REDUCES);
    assertFalse(changed.correct());
    assertTrue(changed.detail().contains("digest"), changed.detail());

    BytesWritable[] stranger = input.stream()
        .filter(r -> new HashPartitioner<BytesWritable, BytesWritable>().getPartition(r[0], r[1], REDUCES) != 1)
        .findFirst().orElseThrow();
    OutputCheck misplaced = OutputChecks.sort(fs, sort.inputDir(root, 7), sortOutput(fs, new Path(root, "misplaced"),
        input, l -> {
          List<BytesWritable[]> copy = new ArrayList<>(l);
          copy.add(stranger);
          copy.sort((a, b) -> a[0].compareTo(b[0]));
          return copy;
        }), REDUCES);
    assertFalse(misplaced.correct());
    assertTrue(misplaced.detail().contains("holds a record of partition"), misplaced.detail());
  }

  private static Map<String, Long> countWords(FileSystem fs, Path dir) throws IOException {
    Map<String, Long> counts = new TreeMap<>();
    for (FileStatus s : fs.listStatus(dir)) {
      if (!s.getPath().getName().startsWith("part-")) {
        continue;
      }
      try (BufferedReader r = new BufferedReader(new InputStreamReader(fs.open(s.getPath()), StandardCharsets.UTF_8))) {
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          StringTokenizer t = new StringTokenizer(line);
          while (t.hasMoreTokens()) {
            counts.merge(t.nextToken(), 1L, Long::sum);
          }
        }
      }
    }
    return counts;
  }

  private static Path wordCountOutput(FileSystem fs, Path out, Map<String, Long> counts) throws IOException {
    HashPartitioner<Text, IntWritable> partitioner = new HashPartitioner<>();
    for (int p = 0; p < REDUCES; p++) {
      try (Writer w = new OutputStreamWriter(fs.create(new Path(out, String.format("part-r-%05d", p))),
          StandardCharsets.UTF_8)) {
        for (Map.Entry<String, Long> e : counts.entrySet()) {
          if (partitioner.getPartition(new Text(e.getKey()), null, REDUCES) == p) {
            w.write(e.getKey() + "\t" + e.getValue() + "\n");
          }
        }
      }
    }
    return out;
  }

  @Test
  void wordCountOutputIsRightOnlyWhenEveryWordHasItsCount(@TempDir java.nio.file.Path tmp) throws IOException {
    FileSystem fs = local();
    Path root = new Path(tmp.toUri());
    WordCountWorkload wc = new WordCountWorkload(100_000, 2, REDUCES);
    wc.prepare(fs, root, 5);
    Map<String, Long> counts = countWords(fs, wc.inputDir(root, 5));

    OutputCheck right = OutputChecks.wordCount(fs, wc.inputDir(root, 5), wordCountOutput(fs, new Path(root, "ok"), counts),
        REDUCES);
    assertTrue(right.correct(), right.detail());

    Map<String, Long> off = new TreeMap<>(counts);
    String word = Arrays.stream(off.keySet().toArray(String[]::new)).findFirst().orElseThrow();
    off.merge(word, 1L, Long::sum);
    OutputCheck miscounted = OutputChecks.wordCount(fs, wc.inputDir(root, 5),
        wordCountOutput(fs, new Path(root, "off"), off), REDUCES);
    assertFalse(miscounted.correct());
    assertTrue(miscounted.detail().contains("\"" + word + "\": " + counts.get(word) + " in the input, "
        + (counts.get(word) + 1) + " in the output"), miscounted.detail());

    Map<String, Long> missing = new TreeMap<>(counts);
    missing.remove(word);
    OutputCheck lost = OutputChecks.wordCount(fs, wc.inputDir(root, 5),
        wordCountOutput(fs, new Path(root, "missing"), missing), REDUCES);
    assertFalse(lost.correct());
    assertTrue(lost.detail().contains("missing from the output"), lost.detail());
  }
}
