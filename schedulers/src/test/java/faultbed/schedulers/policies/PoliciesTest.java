package faultbed.schedulers.policies;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.schedulers.Backup;
import faultbed.schedulers.JobSnapshot;
import faultbed.schedulers.SpeculationPolicy;
import java.util.List;
import org.junit.jupiter.api.Test;

class PoliciesTest {

  /** A user's own policy, loaded by class name. */
  public static class NeverSpeculate implements SpeculationPolicy {
    @Override
    public String name() {
      return "never";
    }

    @Override
    public List<Backup> choose(JobSnapshot job) {
      return List.of();
    }
  }

  @Test
  void builtInNames() {
    assertEquals(List.of("hadoop-0.21", "late", "late-history", "samr", "base"), List.copyOf(Policies.names()));
    assertInstanceOf(Hadoop021Rule.class, Policies.create("hadoop-0.21"));
    assertInstanceOf(Late.class, Policies.create("late"));
    assertNull(((Late) Policies.create("late")).stageWeights());
    assertInstanceOf(Late.class, Policies.create("late-history"));
    assertNotNull(((Late) Policies.create("late-history")).stageWeights());
    assertInstanceOf(Samr.class, Policies.create("samr"));
    assertInstanceOf(Base.class, Policies.create("base"));
    for (String n : Policies.names()) {
      assertEquals(n, Policies.create(n).name());
    }
  }

  @Test
  void userClassByName() {
    SpeculationPolicy p = Policies.create(NeverSpeculate.class.getName());
    assertInstanceOf(NeverSpeculate.class, p);
    assertEquals("never", p.name());
  }

  @Test
  void unknownNameListsTheKnownOnesOnOneLine() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Policies.create("fifo"));
    assertEquals("unknown speculation policy \"fifo\": expected one of hadoop-0.21, late, late-history, samr, "
        + "base, or the class name of a SpeculationPolicy", e.getMessage());
    assertFalse(e.getMessage().contains("\n"));
  }

  @Test
  void classThatIsNotAPolicy() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Policies.create("java.lang.String"));
    assertTrue(e.getMessage().contains("does not implement faultbed.schedulers.SpeculationPolicy"), e.getMessage());
  }
}
