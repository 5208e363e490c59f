package faultbed.harness.timeline;

import faultbed.faults.FileCorruption;
import faultbed.faults.Installed;
import faultbed.harness.Backend;
import faultbed.harness.ClusterSpec;
import faultbed.harness.Node;
import faultbed.results.FaultEffect;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The node's DataNode's replicas of the job's input blocks corrupted on its disk: bytes in the
 * middle of each block file inverted, its size and checksum file untouched, as a disk that returns
 * wrong data. Nothing notices until a client reads that replica: its checksum check fails, it
 * reports the replica to the NameNode and reads another; the NameNode stops offering it, copies a
 * good replica elsewhere and has the DataNode delete the bad one. A corrupt replica nobody reads
 * stays (the DataNode's block scanner passes once in {@code dfs.datanode.scan.period.hours}, three
 * weeks). The heal writes back what is still there, and first counts the replicas the DataNode has
 * deleted meanwhile (reported, replaced) and those left corrupt (never read), for the record.
 */
public record CorruptReplica(Target target, Integer blocks, Duration duration) implements Fault {
  /** How many bytes of each replica are inverted: several checksum chunks' worth is not needed, one is. */
  static final int BYTES = 64;

  public static final FaultKind KIND = FaultKind.kind("corrupt-replica", FaultEffect.NONE)
      .does("the node's replicas of the job's input corrupted", "the node's DataNode's replicas of the job's input"
          + " blocks (all, or the first `blocks`) corrupted in place: bytes in the middle of each block file inverted."
          + " A reader's checksum check fails, it reports the replica to the NameNode and reads another; the NameNode"
          + " re-replicates the block and has the bad replica deleted. A replica nobody reads stays corrupt. The heal"
          + " writes back what is still there. namespace and containers backends; fire it before the maps read (`at` \"0s\")")
      .param(FaultKind.Param.optional("blocks", FaultKind.Form.COUNT, "`blocks` (all)")
          .noted("how many of the input's blocks on the node, in file order (default: all)"))
      .made((target, lasts, p) -> new CorruptReplica(target, p.count("blocks", 1).orElse(null), lasts),
          FaultKind.example("corrupt-replica", t -> new CorruptReplica(t, null, null)));

  public CorruptReplica {
    if (blocks != null && blocks < 1) {
      throw new IllegalArgumentException("blocks: expected at least 1, got " + blocks);
    }
  }

  @Override
  public String kind() {
    return KIND.name();
  }

  @Override
  public Set<faultbed.faults.Capability> needs(ClusterSpec cluster) {
    return cluster.backend().needs(Backend.Mechanism.REPLICA_FILES);
  }

  @Override
  public Optional<Unsupported> unsupported(ClusterSpec cluster) {
    Optional<Unsupported> kind = Fault.super.unsupported(cluster);
    return kind.isPresent() ? kind
        : cluster.backend().refuses(Backend.Mechanism.REPLICA_FILES).map(why -> new Unsupported("kind", why));
  }

  @Override
  public Injection inject(Node node, FaultContext context) {
    List<String> onNode = context.input().blocksOn(node.address());
    List<String> names = blocks != null && onNode.size() > blocks ? onNode.subList(0, blocks) : onNode;
    Map<String, String> detail = new LinkedHashMap<>();
    List<Installed> made = new ArrayList<>();
    List<String> corrupted = new ArrayList<>();
    List<Path> files = new ArrayList<>();
    try {
      for (String name : names) {
        Optional<Path> file = replicaFile(node.dataDirs(), name);
        if (file.isEmpty()) {
          continue; // deleted or moved since the NameNode listed it
        }
        long size = Files.size(file.get());
        if (size < BYTES) {
          continue;
        }
        made.add(FileCorruption.corrupt(context.ledger(), context.runId(), file.get(), size / 2 - BYTES / 2, BYTES));
        corrupted.add(name);
        files.add(file.get());
      }
    } catch (IOException | RuntimeException e) {
      Installed.all(made).heal();
      throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
    }
    detail.put("inputBlocksOnNode", Integer.toString(onNode.size()));
    detail.put("corruptedBlocks", String.join(",", corrupted));
    // what HDFS did with them, seen before the heal writes back what is left: a replica a reader
    // reported is deleted from the node once the NameNode has a good copy elsewhere
    Map<String, String> saw = new java.util.concurrent.ConcurrentHashMap<>();
    Installed all = Installed.all(made);
    Installed healer = () -> {
      synchronized (saw) {
        if (saw.isEmpty()) {
          long deleted = files.stream().filter(f -> !Files.exists(f)).count();
          saw.put("replicasDeleted", Long.toString(deleted));
          saw.put("replicasLeftCorrupt", Long.toString(files.size() - deleted));
        }
      }
      all.heal();
    };
    return new Injection(detail, healer, () -> Map.copyOf(saw));
  }

  /** The block file of {@code name} under the DataNode's dirs (current/BP-*&#47;current/finalized/...). */
  public static Optional<Path> replicaFile(List<Path> dataDirs, String name) throws IOException {
    for (Path dir : dataDirs) {
      if (!Files.isDirectory(dir)) {
        continue;
      }
      try (Stream<Path> s = Files.walk(dir)) {
        Optional<Path> found = s.filter(p -> p.getFileName().toString().equals(name) && Files.isRegularFile(p))
            .findFirst();
        if (found.isPresent()) {
          return found;
        }
      }
    }
    return Optional.empty();
  }
}
