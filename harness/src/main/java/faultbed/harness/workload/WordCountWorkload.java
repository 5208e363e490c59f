package faultbed.harness.workload;

import java.io.BufferedOutputStream;
import faultbed.results.RunRecord.OutputCheck;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.StringTokenizer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;

/**
 * Word count over text drawn from a vocabulary with Zipf-like word frequencies, so a few keys
 * dominate and the reduces are unevenly loaded, as with natural-language input.
 *
 * @param bytes approximate total size of the input files
 * @param maps number of input files, one map each
 * @param reduces number of reduce tasks
 */
public record WordCountWorkload(long bytes, int maps, int reduces) implements Workload {
  public static final String TYPE = "wordcount";
  public static final String JOB_NAME = "faultbed-wordcount";
  public static final int VOCABULARY_SIZE = 5000;
  /** Exponent of the rank-frequency law; 1.0 is classic Zipf. */
  public static final double ZIPF_EXPONENT = 1.0;
  /** Words per line are uniform in [MIN, MAX], about 10 on average. */
  private static final int MIN_WORDS_PER_LINE = 6;
  private static final int MAX_WORDS_PER_LINE = 14;

  public WordCountWorkload {
    Workloads.requireAtLeast("bytes", 1, bytes);
    Workloads.requireAtLeast("maps", 1, maps);
    Workloads.requireAtLeast("reduces", 0, reduces);
  }

  public WordCountWorkload withBytes(long newBytes) {
    return new WordCountWorkload(newBytes, maps, reduces);
  }

  public WordCountWorkload withMaps(int newMaps) {
    return new WordCountWorkload(bytes, newMaps, reduces);
  }

  public WordCountWorkload withReduces(int newReduces) {
    return new WordCountWorkload(bytes, maps, newReduces);
  }

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public Map<String, String> parameters() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("bytes", Long.toString(bytes));
    p.put("maps", Integer.toString(maps));
    p.put("reduces", Integer.toString(reduces));
    return Collections.unmodifiableMap(p);
  }

  /** Where {@link #prepare} puts the part files for this seed. */
  public Path inputDir(Path dataRoot, long dataSeed) {
    return GeneratedInput.inputDir(GeneratedInput.dataDir(dataRoot, TYPE, bytes, maps, dataSeed));
  }

  @Override
  public long prepare(FileSystem fs, Path dataRoot, long dataSeed) throws IOException {
    Path dir = GeneratedInput.dataDir(dataRoot, TYPE, bytes, maps, dataSeed);
    SplittableRandom root = new SplittableRandom(dataSeed);
    Vocabulary vocabulary = new Vocabulary(root.split());
    return GeneratedInput.prepare(fs, dir, bytes, maps, root, (out, target, random) -> {
      // Flushed, not closed: GeneratedInput closes the underlying stream.
      OutputStream buffered = new BufferedOutputStream(out, 64 * 1024);
      StringBuilder line = new StringBuilder(128);
      long written = 0;
      while (written < target) {
        line.setLength(0);
        int words = random.nextInt(MIN_WORDS_PER_LINE, MAX_WORDS_PER_LINE + 1);
        for (int w = 0; w < words; w++) {
          if (w > 0) {
            line.append(' ');
          }
          line.append(vocabulary.sample(random));
        }
        line.append('\n');
        byte[] b = line.toString().getBytes(StandardCharsets.US_ASCII);
        buffered.write(b);
        written += b.length;
      }
      buffered.flush();
    });
  }

  @Override
  public Job createJob(Configuration conf, Path dataRoot, long dataSeed, Path output)
      throws IOException {
    Job job = Job.getInstance(conf, JOB_NAME);
    job.setInputFormatClass(TextInputFormat.class);
    FileInputFormat.setInputPaths(job, inputDir(dataRoot, dataSeed));
    // One map per input file, whatever the block size.
    FileInputFormat.setMinInputSplitSize(job, Long.MAX_VALUE);
    job.setMapperClass(TokenizerMapper.class);
    job.setCombinerClass(IntSumReducer.class);
    job.setReducerClass(IntSumReducer.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(IntWritable.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(IntWritable.class);
    job.setOutputFormatClass(TextOutputFormat.class);
    FileOutputFormat.setOutputPath(job, output);
    job.setNumReduceTasks(reduces);
    return job;
  }

  @Override
  public OutputCheck checkOutput(FileSystem fs, Path dataRoot, long dataSeed, Path output, Job job)
      throws IOException {
    return OutputChecks.wordCount(fs, inputDir(dataRoot, dataSeed), output, reduces);
  }

  /** Emits (word, 1) for every whitespace-separated token. */
  public static class TokenizerMapper extends Mapper<LongWritable, Text, Text, IntWritable> {
    private static final IntWritable ONE = new IntWritable(1);
    private final Text word = new Text();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      StringTokenizer tokens = new StringTokenizer(line.toString());
      while (tokens.hasMoreTokens()) {
        word.set(tokens.nextToken());
        context.write(word, ONE);
      }
    }
  }

  /** Sums the counts of a word; used as both combiner and reducer. */
  public static class IntSumReducer extends Reducer<Text, IntWritable, Text, IntWritable> {
    private final IntWritable sum = new IntWritable();

    @Override
    protected void reduce(Text word, Iterable<IntWritable> counts, Context context)
        throws IOException, InterruptedException {
      int total = 0;
      for (IntWritable c : counts) {
        total += c.get();
      }
      sum.set(total);
      context.write(word, sum);
    }
  }

  /** Distinct pseudo-words in rank order, sampled by inverting the rank-frequency CDF. */
  static final class Vocabulary {
    private final String[] words;
    private final double[] cumulative;

    Vocabulary(SplittableRandom random) {
      Set<String> distinct = new LinkedHashSet<>();
      StringBuilder sb = new StringBuilder();
      while (distinct.size() < VOCABULARY_SIZE) {
        sb.setLength(0);
        int length = random.nextInt(2, 11);
        for (int i = 0; i < length; i++) {
          sb.append((char) ('a' + random.nextInt(26)));
        }
        distinct.add(sb.toString());
      }
      words = distinct.toArray(new String[0]);
      cumulative = new double[words.length];
      double total = 0;
      for (int rank = 1; rank <= words.length; rank++) {
        total += 1.0 / Math.pow(rank, ZIPF_EXPONENT);
        cumulative[rank - 1] = total;
      }
      for (int i = 0; i < cumulative.length; i++) {
        cumulative[i] /= total;
      }
    }

    String sample(SplittableRandom random) {
      int i = Arrays.binarySearch(cumulative, random.nextDouble());
      // A miss returns -(insertion point) - 1; the insertion point is the sampled rank.
      int index = i >= 0 ? i : -i - 1;
      return words[Math.min(index, words.length - 1)];
    }
  }
}
