package faultbed.harness.junit;

import faultbed.results.RecordStore;
import faultbed.results.RunRecord;
import faultbed.results.SuiteSummary;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Saves the run records of a test class and, at the end, their summary. */
public final class Recorder {
  private final RecordStore store;
  private final List<RunRecord> records = new ArrayList<>();

  public Recorder(Path dir) {
    this.store = new RecordStore(dir);
  }

  public Path dir() {
    return store.dir();
  }

  /** Writes the record atomically and returns it, so a test can save and assert in one line. */
  public synchronized RunRecord save(RunRecord record) {
    store.write(record);
    records.add(record);
    return record;
  }

  public synchronized List<RunRecord> records() {
    return List.copyOf(records);
  }

  synchronized void writeSummary() {
    if (!records.isEmpty()) {
      store.writeSummary(SuiteSummary.of(records));
    }
  }
}
