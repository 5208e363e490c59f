package faultbed.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import faultbed.results.RunRecord.FaultEvent;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A fault's effect is read from its record: a kind the analysis has never heard of is judged by the
 * effect its record carries, and records written before faults carried one read as they always did.
 */
class FaultEffectTest {
  private final ObjectMapper json = RecordStore.json();

  @Test
  void aNewKindIsJudgedByTheEffectItsRecordCarries() throws Exception {
    FaultEvent diskError = new FaultEvent("disk-error", 1, "node 1", "at 5s", 5_000L, 5_010L, null, Map.of(),
        FaultEffect.STALLS);
    FaultEvent read = json.readValue(json.writeValueAsString(diskError), FaultEvent.class);
    assertEquals(diskError, read);
    assertTrue(read.effect().stopsNode() && read.effect().stallsNode() && read.effect().slowsNode());
    // the same kind in a record without its effect is unknown to the old table: it does nothing
    assertEquals(FaultEffect.NONE, new FaultEvent("disk-error", 1, "node 1", "at 5s", 5_000L, 5_010L, null, null)
        .effect());
  }

  @Test
  void recordsWrittenBeforeTheEffectReadAsTheyDid() throws Exception {
    FaultEvent crash = new FaultEvent("crash", 2, "random", "at 9s", 9_000L, 9_003L, null, Map.of());
    ObjectNode older = (ObjectNode) json.readTree(json.writeValueAsString(crash));
    older.remove("effect");
    FaultEvent read = json.treeToValue(older, FaultEvent.class);
    assertEquals(FaultEffect.KILLS, read.effect());
    assertTrue(read.effect().killsNode());
    assertEquals(FaultEffect.STALLS, FaultEffect.ofOldRecord("freeze"));
    assertEquals(FaultEffect.SLOWS, FaultEffect.ofOldRecord("bandwidth-cap"));
    assertFalse(FaultEffect.ofOldRecord("rst-suppression").stopsNode());
  }

  @Test
  void aKilledNodeIsAStoppedOne() {
    assertThrows(IllegalArgumentException.class, () -> new FaultEffect(false, true, false));
  }
}
