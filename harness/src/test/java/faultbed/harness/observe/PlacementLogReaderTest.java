package faultbed.harness.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import faultbed.results.RunRecord.LinkRate;
import faultbed.results.RunRecord.PlacementEvent;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PlacementLogReaderTest {
  private static final Map<String, Integer> NODES = Map.of("198.18.1.10", 0, "198.18.1.12", 2);

  @Test
  void decisionsAndRatesAreReadWithNodesByIndexAndTimesFromSubmission() throws IOException {
    List<String> lines = List.of(
        "Dec 07, 2026 4:09:16 AM com.sun.jersey... INFO: unrelated",
        "faultbed-placement installed: min-completion, bandwidth from the probes on port 13564",
        "faultbed-placement {\"event\":\"assigned\",\"atEpochMs\":1500,\"type\":\"MAP\",\"container\":\"c_2\","
            + "\"host\":\"198.18.1.10\",\"attempt\":\"attempt_1_0001_m_000003_0\",\"expectedMs\":5732.5,\"candidates\":3,"
            + "\"reason\":\"its preferred node\"}",
        "faultbed-placement {\"event\":\"released\",\"atEpochMs\":1600,\"type\":\"REDUCE\",\"container\":\"c_3\","
            + "\"host\":\"198.18.1.12\",\"preferred\":\"198.18.1.10\",\"expectedMs\":900,\"reason\":\"elsewhere\"}",
        "faultbed-placement {\"event\":\"bandwidth\",\"atEpochMs\":2000,\"rates\":[[\"198.18.1.12\",\"198.18.1.10\",1000000],"
            + "[\"198.18.9.9\",\"198.18.1.10\",5]]}");
    List<PlacementEvent> events = new ArrayList<>();
    List<LinkRate> rates = new ArrayList<>();
    PlacementLogReader.parse(lines, NODES, 1000, events, rates);

    assertEquals(List.of(
        new PlacementEvent(500, "assigned", "MAP", 0, "attempt_1_0001_m_000003_0", 5732.5, 3, null, "its preferred node"),
        new PlacementEvent(600, "released", "REDUCE", 2, null, 900.0, null, 0, "elsewhere")), events);
    // a host that is not one of the cluster's nodes is left out
    assertEquals(List.of(new LinkRate(1000, 2, 0, 1_000_000)), rates);
    assertNull(events.get(0).preferred());
  }

  @Test
  void aBrokenDecisionLineIsAnError() {
    assertThrows(IOException.class, () -> PlacementLogReader.parse(List.of("faultbed-placement {\"event\":"), NODES, 0,
        new ArrayList<>(), new ArrayList<>()));
  }
}
