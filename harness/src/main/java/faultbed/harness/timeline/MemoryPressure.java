package faultbed.harness.timeline;

import faultbed.faults.Installed;
import faultbed.harness.Backend;
import faultbed.harness.Node;
import faultbed.results.FaultEffect;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The node's memory limited, and optionally a hog holding part of it: when what the node holds no
 * longer fits, the kernel's OOM killer kills its largest process: a task JVM (its attempt fails with
 * exit code 137), or on backends whose nodes hold their daemons the NodeManager and DataNode's JVM
 * (the node dies as in a crash). The hog is held by processes of at most 32 MB each, smaller than
 * any JVM, so the OOM killer (which takes the largest) takes the node's own processes first, as it
 * would beside a daemon the operator protected.
 * Hadoop's own memory monitor kills a container whose process tree outgrows its allocation when
 * {@code yarn.nodemanager.pmem-check-enabled} (or {@code vmem-}) is true, which a scenario's
 * {@code hadoop} may set; faultbed's defaults turn both off.
 */
public record MemoryPressure(Target target, Long limitBytes, Long headroomBytes, Long hogBytes, Duration duration)
    implements Fault {
  public static final FaultKind KIND = FaultKind.kind("memory-pressure", FaultEffect.SLOWS)
      .does("the node's memory limited, a hog holding part of it: the OOM killer acts", "the node's memory limited"
          + " to `limit`, or to what it holds at the fault and `headroom` more (its cgroup's `memory.max` or v1"
          + " `memory.limit_in_bytes`; on containers, Docker's memory limit),"
          + " then processes holding `hog` bytes started in it, in pieces smaller than any JVM: where"
          + " the node's processes no longer fit, the kernel kills the largest (a task JVM, exit 137; on namespace and"
          + " containers possibly the NodeManager and DataNode's JVM). cgroup v1 refuses a limit below what the node"
          + " holds and cannot give back: give a limit above it and a hog to press. Hadoop's pmem and vmem checks are"
          + " the scenario's `hadoop` to turn on")
      .param(FaultKind.Param.optional("limit", FaultKind.Form.SIZE, "`limit` (`\"1GB\"`)")
          .noted("the node's memory limit"))
      .param(FaultKind.Param.optional("headroom", FaultKind.Form.SIZE, "`headroom`")
          .noted("the node's memory limit: what it holds when the fault fires and this much more"))
      .anyOf("limit", "headroom")
      .param(FaultKind.Param.optional("hog", FaultKind.Form.SIZE, "`hog`")
          .noted("bytes held in the node by processes of at most 32 MB, which the OOM killer takes last"))
      .made(MemoryPressure::of, FaultKind.example("memory-pressure", t -> new MemoryPressure(t, null, 64L << 20,
          256L << 20, null)));

  public MemoryPressure {
    if ((limitBytes == null) == (headroomBytes == null)) {
      throw new IllegalArgumentException("limit: expected either \"limit\" or \"headroom\"");
    }
    if (limitBytes != null && limitBytes < 1 << 20) {
      throw new IllegalArgumentException("limit: expected a memory limit of at least 1MB, got " + limitBytes + " bytes");
    }
    if (hogBytes != null && hogBytes < 1) {
      throw new IllegalArgumentException("hog: expected at least 1 byte, got " + hogBytes);
    }
  }

  private static MemoryPressure of(Target target, Duration lasts, FaultParams p) {
    Optional<Long> limit = p.bytes("limit");
    Optional<Long> headroom = p.bytes("headroom");
    if (limit.isPresent() == headroom.isPresent()) {
      throw p.invalid(limit.isPresent() ? "headroom" : null, "either \"limit\" (the node's memory limit) or"
          + " \"headroom\" (above what it holds when the fault fires), not both");
    }
    if (limit.isPresent() && limit.get() < 1 << 20) {
      throw p.invalid("limit", "a memory limit of at least 1MB, such as \"1GB\"");
    }
    return new MemoryPressure(target, limit.orElse(null), headroom.orElse(null), p.bytes("hog").orElse(null), lasts);
  }

  /** The node's memory limited to {@code limit} bytes, with a hog of {@code hog} bytes (null: none). */
  public static MemoryPressure limitedTo(Target target, long limit, Long hog, Duration lasts) {
    return new MemoryPressure(target, limit, null, hog, lasts);
  }

  /** The node's memory limited to what it holds when the fault fires and {@code headroom} more, with a hog. */
  public static MemoryPressure withHeadroom(Target target, long headroom, Long hog, Duration lasts) {
    return new MemoryPressure(target, null, headroom, hog, lasts);
  }

  @Override
  public String kind() {
    return KIND.name();
  }

  @Override
  public Duration duration() {
    return duration;
  }

  @Override
  public Set<faultbed.faults.Capability> needs(faultbed.harness.ClusterSpec cluster) {
    return cluster.backend().needs(Backend.Mechanism.MEMORY_LIMIT);
  }

  @Override
  public Optional<Unsupported> unsupported(faultbed.harness.ClusterSpec cluster) {
    Optional<Unsupported> kind = Fault.super.unsupported(cluster);
    return kind.isPresent() ? kind
        : cluster.backend().refuses(Backend.Mechanism.MEMORY_LIMIT).map(why -> new Unsupported("kind", why));
  }

  @Override
  public Injection inject(Node node, FaultContext context) {
    Map<String, String> detail = new LinkedHashMap<>();
    long limit;
    if (limitBytes != null) {
      limit = limitBytes;
    } else {
      long held = node.memoryUsage();
      detail.put("heldBytes", Long.toString(held));
      limit = held + headroomBytes;
    }
    detail.put("limitBytes", Long.toString(limit));
    List<Installed> made = new ArrayList<>();
    made.add(node.limitMemory(limit));
    try {
      if (hogBytes != null) {
        made.add(node.memoryHog(hogBytes));
        detail.put("hogBytes", Long.toString(hogBytes));
      }
    } catch (RuntimeException e) {
      Installed.all(made).heal();
      throw e;
    }
    return new Injection(detail, Installed.all(made));
  }
}
