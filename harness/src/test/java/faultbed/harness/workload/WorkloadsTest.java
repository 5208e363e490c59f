package faultbed.harness.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkloadsTest {
  private static final long BYTES = 1 << 20;
  private static final int MAPS = 4;

  @TempDir java.nio.file.Path tmp;
  private FileSystem fs;

  @BeforeEach
  void localFileSystem() throws IOException {
    fs = FileSystem.getLocal(new Configuration());
  }

  @Test
  void parseBytesAcceptsBinaryUnits() {
    assertEquals(256L << 20, Workloads.parseBytes("256MB"));
    assertEquals(64L << 10, Workloads.parseBytes("64KB"));
    assertEquals(1L << 30, Workloads.parseBytes("1GB"));
    assertEquals(1048576L, Workloads.parseBytes("1048576"));
    assertEquals(2L << 40, Workloads.parseBytes("2TB"));
    assertEquals(512L, Workloads.parseBytes("512B"));
    assertEquals(3L << 30, Workloads.parseBytes("3gb"));
    assertEquals(10L << 20, Workloads.parseBytes(" 10 MB "));
    assertEquals(8L << 10, Workloads.parseBytes("8K"));
  }

  @Test
  void parseBytesRejectsJunk() {
    for (String bad : new String[] {"", "MB", "abc", "1.5GB", "-1", "10XB", "1 2MB",
        "99999999999TB", "99999999999999999999"}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> Workloads.parseBytes(bad), bad);
      assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> Workloads.parseBytes(null));
  }

  @Test
  void constructorsNameTheBadParameter() {
    assertMessage("workload.maps: expected at least 1, got 0",
        () -> Workloads.sort(BYTES).withMaps(0));
    assertMessage("workload.bytes: expected at least 1, got 0", () -> Workloads.sort(0));
    assertMessage("workload.reduces: expected at least 0, got -1",
        () -> Workloads.wordcount(BYTES).withReduces(-1));
    assertMessage("workload.bytes: expected at least 1, got -5", () -> Workloads.wordcount(-5));
    assertMessage("workload.maps: expected at least 1, got 0", () -> Workloads.synthetic(0, 1));
    assertMessage("workload.mapMillis: expected at least 0, got -1",
        () -> Workloads.synthetic(2, 1).withMapMillis(-1));
    assertMessage("workload.reduceMillis: expected at least 0, got -2",
        () -> Workloads.synthetic(2, 1).withReduceMillis(-2));
    assertMessage("workload.recordsPerMap: expected at least 0, got -3",
        () -> Workloads.synthetic(2, 1).withRecordsPerMap(-3));
    assertMessage("workload.mapMillisList[1]: expected at least 0, got -4",
        () -> Workloads.synthetic(2, 1).withMapMillisList(List.of(5L, -4L)));
    assertMessage("workload.mapMillisList: expected at most 2 entries (one per map), got 3",
        () -> Workloads.synthetic(2, 1).withMapMillisList(List.of(1L, 2L, 3L)));
  }

  @Test
  void buildersAndParameters() {
    SortWorkload sort = Workloads.sort(BYTES);
    assertEquals(8, sort.maps());
    assertEquals(2, sort.reduces());
    assertEquals(new SortWorkload(BYTES, 3, 1), sort.withMaps(3).withReduces(1));
    assertEquals(2, sort.reduces(), "builders must not mutate");
    assertEquals("sort", sort.type());
    assertEquals(Map.of("bytes", "1048576", "maps", "8", "reduces", "2"), sort.parameters());
    assertEquals(List.of("bytes", "maps", "reduces"), new ArrayList<>(sort.parameters().keySet()));
    assertThrows(UnsupportedOperationException.class, () -> sort.parameters().put("x", "y"));

    assertEquals("wordcount", Workloads.wordcount(BYTES).type());

    SyntheticWorkload syn = Workloads.synthetic(3, 2).withMapMillis(100).withReduceMillis(50)
        .withMapMillisList(List.of(7L, 8L)).withRecordsPerMap(10);
    assertEquals("synthetic", syn.type());
    assertEquals(List.of("maps", "reduces", "mapMillis", "reduceMillis", "mapMillisList",
        "recordsPerMap"), new ArrayList<>(syn.parameters().keySet()));
    assertEquals("7,8", syn.parameters().get("mapMillisList"));
    assertEquals(7, syn.mapMillis(0));
    assertEquals(8, syn.mapMillis(1));
    assertEquals(100, syn.mapMillis(2));
    assertFalse(Workloads.synthetic(1, 1).parameters().containsKey("mapMillisList"));
    List<Long> mutable = new ArrayList<>(List.of(1L));
    SyntheticWorkload copy = Workloads.synthetic(1, 1).withMapMillisList(mutable);
    mutable.set(0, 99L);
    assertEquals(List.of(1L), copy.mapMillisList());
  }

  @Test
  void sortPrepareIsDeterministicAndReused() throws Exception {
    SortWorkload sort = Workloads.sort(BYTES).withMaps(MAPS);
    // SequenceFile.Writer picks a random sync marker, so files are compared by their records.
    checkPrepare(sort, sort::inputDir, this::records);
    // Every file is a readable SequenceFile of 10-byte keys and 90-byte values.
    Path part = new Path(sort.inputDir(root("a"), 42), GeneratedInput.partName(0));
    try (SequenceFile.Reader reader =
        new SequenceFile.Reader(fs.getConf(), SequenceFile.Reader.file(part))) {
      assertEquals(BytesWritable.class, reader.getKeyClass());
      assertFalse(reader.isCompressed());
      BytesWritable k = new BytesWritable();
      BytesWritable v = new BytesWritable();
      int records = 0;
      while (reader.next(k, v)) {
        assertEquals(SortWorkload.KEY_BYTES, k.getLength());
        assertEquals(SortWorkload.VALUE_BYTES, v.getLength());
        records++;
      }
      assertTrue(records > 2000, "records: " + records);
    }
  }

  @Test
  void wordCountPrepareIsDeterministicAndReused() throws Exception {
    WordCountWorkload wc = Workloads.wordcount(BYTES).withMaps(MAPS);
    checkPrepare(wc, wc::inputDir, this::read);
    Path part = new Path(wc.inputDir(root("a"), 42), GeneratedInput.partName(0));
    String text = new String(read(part), java.nio.charset.StandardCharsets.US_ASCII);
    String[] lines = text.split("\n");
    String[] words = text.split("\\s+");
    double perLine = (double) words.length / lines.length;
    assertTrue(perLine > 9 && perLine < 11, "words per line: " + perLine);
    Map<String, Long> counts = new java.util.HashMap<>();
    for (String w : words) {
      counts.merge(w, 1L, Long::sum);
    }
    long top = counts.values().stream().mapToLong(Long::longValue).max().orElse(0);
    // Zipf with 5000 ranks: the top word is about 11% of all words.
    assertTrue(top > words.length / 20, "top word count " + top + " of " + words.length);
    assertTrue(counts.size() > 1000 && counts.size() <= WordCountWorkload.VOCABULARY_SIZE,
        "distinct words: " + counts.size());
  }

  @Test
  void prepareRewritesAnInterruptedCopy() throws Exception {
    SortWorkload sort = Workloads.sort(64 << 10).withMaps(2);
    Path root = root("r");
    long first = sort.prepare(fs, root, 5);
    Path input = sort.inputDir(root, 5);
    byte[] before = records(new Path(input, GeneratedInput.partName(1)));
    fs.delete(new Path(input.getParent(), GeneratedInput.MARKER), false);
    fs.delete(new Path(input, GeneratedInput.partName(1)), false);
    assertEquals(first, sort.prepare(fs, root, 5));
    assertArrayEquals(before, records(new Path(input, GeneratedInput.partName(1))));
  }

  @Test
  void jobsAreConfiguredForOneSplitPerFile() throws IOException {
    Path root = root("jobs");
    Job sort = Workloads.sort(BYTES).withReduces(3).createJob(new Configuration(), root, 1,
        new Path(root, "out"));
    assertEquals("faultbed-sort", sort.getJobName());
    assertEquals(3, sort.getNumReduceTasks());
    assertEquals(Long.MAX_VALUE, FileInputFormat.getMinSplitSize(sort));
    Job wc = Workloads.wordcount(BYTES).createJob(new Configuration(), root, 1,
        new Path(root, "out"));
    assertEquals("faultbed-wordcount", wc.getJobName());
    assertEquals(Long.MAX_VALUE, FileInputFormat.getMinSplitSize(wc));
    Job syn = Workloads.synthetic(5, 2).withMapMillisList(List.of(1L, 2L))
        .createJob(new Configuration(), root, 1, new Path(root, "out"));
    assertEquals("faultbed-synthetic", syn.getJobName());
    assertEquals("1,2", syn.getConfiguration().get(SyntheticWorkload.MAP_MS_LIST_KEY));
    assertEquals(0, Workloads.synthetic(5, 2).prepare(fs, root, 1));
  }

  @Test
  void syntheticSplitsCarryTheirIndex() throws Exception {
    Configuration conf = new Configuration();
    conf.setInt(SyntheticWorkload.MAPS_KEY, 6);
    List<InputSplit> splits = new SyntheticWorkload.SyntheticInputFormat()
        .getSplits(new JobContextImpl(conf, new org.apache.hadoop.mapreduce.JobID()));
    assertEquals(6, splits.size());
    for (int i = 0; i < splits.size(); i++) {
      SyntheticWorkload.IndexSplit split = (SyntheticWorkload.IndexSplit) splits.get(i);
      assertEquals(0, split.getLocations().length);
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      split.write(new DataOutputStream(bytes));
      SyntheticWorkload.IndexSplit copy = new SyntheticWorkload.IndexSplit();
      copy.readFields(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
      assertEquals(i, copy.index());
    }
  }

  @Test
  void aSlowedAttemptStepsSlowerFromItsProfilesProgressOnAndOtherAttemptsDoNot() throws Exception {
    Configuration conf = new Configuration();
    conf.setLong(SyntheticWorkload.MAP_MS_KEY, 1_000);
    SyntheticWorkload w = Workloads.synthetic(2, 1).withMapMillis(1_000)
        .withSlowdowns(List.of(new Slowdown(0, 0, List.of(new Slowdown.Step(0.5, 4)))));
    conf.set(SyntheticWorkload.SLOWDOWNS_KEY, w.parameters().get("slowdowns"));
    assertEquals("m0a0:0.5x4", conf.get(SyntheticWorkload.SLOWDOWNS_KEY));

    long[] slowed = readAll(conf, new TaskAttemptID("jt", 1, TaskType.MAP, 0, 0));
    // 20 steps of 50 ms, the last 10 four times as long: 500 ms then 2000 ms
    assertTrue(slowed[0] >= 450 && slowed[0] < 1_200, "first half took " + slowed[0] + " ms");
    assertTrue(slowed[1] >= 1_950 && slowed[1] < 3_500, "second half took " + slowed[1] + " ms");
    long[] backup = readAll(conf, new TaskAttemptID("jt", 1, TaskType.MAP, 0, 1));
    assertTrue(backup[1] < 1_200, "attempt 1 is not slowed, its second half took " + backup[1] + " ms");
    long[] sibling = readAll(conf, new TaskAttemptID("jt", 1, TaskType.MAP, 1, 0));
    assertTrue(sibling[1] < 1_200, "map 1 is not slowed, its second half took " + sibling[1] + " ms");
  }

  /** Reads every record of the attempt's map; returns ms to reach half progress, then ms from there to the end. */
  private static long[] readAll(Configuration conf, TaskAttemptID attempt) throws Exception {
    SyntheticWorkload.TimedRecordReader reader = new SyntheticWorkload.TimedRecordReader();
    long start = System.nanoTime();
    reader.initialize(new SyntheticWorkload.IndexSplit(attempt.getTaskID().getId()),
        new TaskAttemptContextImpl(conf, attempt));
    long half = -1;
    while (reader.nextKeyValue()) {
      if (half < 0 && reader.getProgress() >= 0.5f) {
        half = System.nanoTime();
      }
    }
    long end = System.nanoTime();
    return new long[] {(half - start) / 1_000_000, (end - half) / 1_000_000};
  }

  @Test
  void slowdownsRoundTripAndRefuseWhatCannotBe() {
    List<Slowdown> all = List.of(new Slowdown(0, 0, List.of(new Slowdown.Step(0.1, 2), new Slowdown.Step(0.25, 4.5))),
        new Slowdown(3, 1, List.of(new Slowdown.Step(0, 1000))));
    assertEquals("m0a0:0.1x2,0.25x4.5;m3a1:0x1000", Slowdown.encodeAll(all));
    assertEquals(all, Slowdown.decodeAll(Slowdown.encodeAll(all)));
    assertEquals(1.0, all.get(0).factorAt(0.05));
    assertEquals(2.0, all.get(0).factorAt(0.1));
    assertEquals(4.5, all.get(0).factorAt(0.99));
    assertMessage("profile[1].from: expected more than 0.4 (steps in increasing progress), got 0.2",
        () -> new Slowdown(0, 0, List.of(new Slowdown.Step(0.4, 2), new Slowdown.Step(0.2, 3))));
    assertMessage("factor: expected a slow-down factor in [1, 1000000], got 0.5", () -> new Slowdown.Step(0.1, 0.5));
    assertMessage("workload.slowdowns[0].map: expected a map index below 2, got 2",
        () -> Workloads.synthetic(2, 1).withSlowdowns(List.of(new Slowdown(2, 0, List.of(new Slowdown.Step(0, 2))))));
  }

  @Test
  void syntheticReaderSpreadsRecordsOverTheDuration() throws Exception {
    Configuration conf = new Configuration();
    conf.setLong(SyntheticWorkload.MAP_MS_KEY, 5_000);
    conf.set(SyntheticWorkload.MAP_MS_LIST_KEY, "5000,400");
    SyntheticWorkload.TimedRecordReader reader = new SyntheticWorkload.TimedRecordReader();
    long start = System.nanoTime();
    reader.initialize(new SyntheticWorkload.IndexSplit(1),
        new TaskAttemptContextImpl(conf, new TaskAttemptID()));
    List<Float> progress = new ArrayList<>();
    int records = 0;
    while (reader.nextKeyValue()) {
      assertEquals(1, reader.getCurrentKey().get());
      assertEquals(records, reader.getCurrentValue().get());
      progress.add(reader.getProgress());
      records++;
    }
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertEquals(SyntheticWorkload.MIN_STEPS, records);
    assertTrue(millis >= 400 && millis < 3_000, "took " + millis + " ms");
    for (int i = 1; i < progress.size(); i++) {
      assertTrue(progress.get(i) > progress.get(i - 1), "progress " + progress);
    }
    assertTrue(progress.get(0) < 0.2f, "progress " + progress);
    assertEquals(1f, reader.getProgress());
  }

  @Test
  void everyKeyReachesExactlyOneReduce() {
    for (int reduces : new int[] {1, 2, 3, 7}) {
      for (int records : new int[] {0, 1, 5, 1000}) {
        int total = 0;
        for (int r = 0; r < reduces; r++) {
          total += SyntheticWorkload.expectedKeys(4, reduces, records, r);
        }
        int keySpace = reduces * SyntheticWorkload.KEYS_PER_REDUCE;
        assertEquals(Math.min(keySpace, records == 0 ? 0 : records + 3), total,
            reduces + " reduces, " + records + " records");
      }
    }
  }

  private interface InputDirOf {
    Path at(Path root, long seed);
  }

  private interface Content {
    byte[] of(Path part) throws IOException;
  }

  private void checkPrepare(Workload w, InputDirOf inputDir, Content content) throws Exception {
    Path a = root("a");
    long size = w.prepare(fs, a, 42);
    List<Path> parts = parts(inputDir.at(a, 42));
    assertEquals(MAPS, parts.size());
    long onDisk = 0;
    for (Path p : parts) {
      onDisk += fs.getFileStatus(p).getLen();
    }
    assertEquals(onDisk, size);
    assertTrue(Math.abs(size - BYTES) <= BYTES / 20, "size " + size + " vs " + BYTES);

    // Same seed elsewhere: same bytes; another seed: different bytes.
    Path b = root("b");
    assertEquals(size, w.prepare(fs, b, 42));
    List<Path> same = parts(inputDir.at(b, 42));
    for (int i = 0; i < MAPS; i++) {
      assertEquals(fs.getFileStatus(parts.get(i)).getLen(), fs.getFileStatus(same.get(i)).getLen());
      assertArrayEquals(content.of(parts.get(i)), content.of(same.get(i)), "part " + i);
    }
    w.prepare(fs, b, 43);
    List<Path> other = parts(inputDir.at(b, 43));
    assertEquals(MAPS, other.size());
    for (int i = 0; i < MAPS; i++) {
      assertFalse(Arrays.equals(content.of(parts.get(i)), content.of(other.get(i))), "part " + i);
    }

    // A second prepare finds the marker and leaves the files alone.
    long past = System.currentTimeMillis() - 3_600_000;
    for (Path p : parts) {
      fs.setTimes(p, past, -1);
    }
    assertEquals(size, w.prepare(fs, a, 42));
    for (Path p : parts) {
      assertEquals(past / 1000, fs.getFileStatus(p).getModificationTime() / 1000, p.toString());
    }
  }

  private List<Path> parts(Path dir) throws IOException {
    List<Path> parts = new ArrayList<>();
    for (FileStatus s : fs.listStatus(dir)) {
      if (s.getPath().getName().startsWith("part-")) {
        parts.add(s.getPath());
      }
    }
    parts.sort(null);
    return parts;
  }

  /** The keys and values of a SequenceFile, without its sync markers. */
  private byte[] records(Path p) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (SequenceFile.Reader reader =
        new SequenceFile.Reader(fs.getConf(), SequenceFile.Reader.file(p))) {
      BytesWritable k = new BytesWritable();
      BytesWritable v = new BytesWritable();
      while (reader.next(k, v)) {
        out.write(k.getBytes(), 0, k.getLength());
        out.write(v.getBytes(), 0, v.getLength());
      }
    }
    return out.toByteArray();
  }

  private byte[] read(Path p) throws IOException {
    try (InputStream in = fs.open(p)) {
      return in.readAllBytes();
    }
  }

  private Path root(String name) throws IOException {
    return new Path(Files.createDirectories(tmp.resolve(name)).toUri());
  }

  private static void assertMessage(String expected, Supplier<?> build) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, build::get);
    assertEquals(expected, e.getMessage());
  }
}
