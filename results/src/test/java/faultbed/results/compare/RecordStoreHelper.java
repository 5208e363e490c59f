package faultbed.results.compare;

import faultbed.results.RecordStore;
import java.nio.file.Path;

/** Suites of records written for a test. */
final class RecordStoreHelper {
  private RecordStoreHelper() {}

  /** Variants a and a-again, four runs each, not in blocks. */
  static void unblocked(Path dir) {
    RecordStore store = new RecordStore(dir);
    for (int i = 0; i < 4; i++) {
      store.write(BlockedSuite.record("a", i, 1000L + i, 40 + i));
      store.write(BlockedSuite.record("a-again", i, 1000L + i, 41 + i));
    }
  }
}
