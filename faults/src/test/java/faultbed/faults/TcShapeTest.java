package faultbed.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** tc's words for a delay: netem's, with jitter and reordering only when asked for. */
class TcShapeTest {
  @Test
  void aNetemLeafSaysItsDelayJitterAndReordering() {
    assertEquals(List.of("netem", "delay", "50ms"), TcShape.netem(Duration.ofMillis(50), Duration.ZERO));
    assertEquals(List.of("netem", "delay", "50ms", "5ms"), TcShape.netem(Duration.ofMillis(50), Duration.ofMillis(5)));
    assertEquals(List.of("netem", "delay", "10ms", "reorder", "25%"),
        TcShape.netem(Duration.ofMillis(10), Duration.ZERO, 0.25));
    assertEquals(List.of("netem", "delay", "10ms", "reorder", "0.1%"),
        TcShape.netem(Duration.ofMillis(10), Duration.ZERO, 0.001));
  }
}
