package faultbed.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import faultbed.results.RunRecord.AttemptRecord;
import org.junit.jupiter.api.Test;

/** A map's locality survives the record's JSON, and records written before it was kept still read. */
class AttemptRecordJsonTest {
  private final ObjectMapper json = RecordStore.json();

  @Test
  void localityIsWrittenAndReadBackAndAbsentInOlderRecords() throws Exception {
    AttemptRecord map = new AttemptRecord("attempt_1_0001_m_000000_0", "task_1_0001_m_000000", "MAP", 0, 2,
        "198.18.0.12:40000", "container_1_0001_01_000002", 1_000L, 9_000L, 9_000L, null, null, "SUCCEEDED", false,
        null, 1, 9_000L, "OFF_SWITCH");
    String written = json.writeValueAsString(map);
    assertEquals(map, json.readValue(written, AttemptRecord.class));

    ObjectNode older = (ObjectNode) json.readTree(written);
    assertEquals("OFF_SWITCH", older.remove("locality").asText());
    AttemptRecord read = json.treeToValue(older, AttemptRecord.class);
    assertNull(read.locality());
    assertEquals(map.succeededMs(), read.succeededMs());
  }
}
