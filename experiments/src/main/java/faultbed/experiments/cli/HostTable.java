package faultbed.experiments.cli;

import faultbed.faults.Capability;
import faultbed.faults.CgroupLayout;
import faultbed.faults.DockerEngine;
import faultbed.faults.ToxiproxyServer;
import faultbed.experiments.scenario.Preconditions;
import faultbed.experiments.scenario.ScenarioParser;
import faultbed.harness.ClusterSpec;
import faultbed.harness.NetworkBackend;
import faultbed.harness.Backend;
import faultbed.harness.Backends;
import faultbed.harness.timeline.Fault;
import faultbed.harness.timeline.FaultKind;
import faultbed.harness.timeline.Target;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What this host can do, as {@code doctor} prints it: the cgroup layout found, each capability,
 * and each fault kind on each network backend, available or not and why. Built from the same
 * checks a scenario's precondition check uses.
 */
final class HostTable {
  private HostTable() {}

  /** One fault of each kind (and each way a kind can need more), as a scenario would write it. */
  /** What the host can do: the facts doctor prints, as data for {@code --json}. */
  record Report(boolean root, String uid, String cgroups, List<String> cgroupNotes, List<Check> capabilities,
      List<Check> backends, List<KindRow> faultKinds) {}

  /** A capability: there or not, and what it is, or why not and how to get it. */
  record Check(String name, boolean ok, String detail) {}

  /**
   * A fault kind on each node backend with each network backend ("mini", "mini+toxiproxy", ...):
   * "yes", or "no: " and why.
   */
  record KindRow(String kind, Map<String, String> on) {}

  static Report probe() {
    CgroupLayout cgroups = CgroupLayout.current();
    List<Check> checks = new java.util.ArrayList<>();
    for (Capability c : Capability.values()) {
      List<String> p = c.problems();
      checks.add(new Check(c.label(), p.isEmpty(), p.isEmpty() ? c.what() : p.get(0)));
    }
    Optional<String> docker = DockerEngine.unavailable();
    checks.add(new Check("docker", docker.isEmpty(), docker.orElse("a Docker engine answers (the containers backend;"
        + " Toxiproxy in a container)")));
    Optional<String> toxiproxy = ToxiproxyServer.unavailable(null);
    checks.add(new Check("toxiproxy", toxiproxy.isEmpty(), toxiproxy.orElse("a Toxiproxy server is reachable")));
    Optional<java.nio.file.Path> program = ToxiproxyServer.program();
    checks.add(new Check("toxiproxy-server", program.isPresent(), program.map(p -> p + " (Toxiproxy inside each node"
        + " of the namespace backend)").orElse(ToxiproxyServer.programMissing())));
    Map<String, ClusterSpec> clusters = new LinkedHashMap<>();
    for (Backend backend : Backends.all()) {
      if (backend.usesExistingCluster()) {
        continue; // its faults act on the inventory's hosts, checked over SSH when the cluster starts
      }
      ClusterSpec kernel = ClusterSpec.defaults().withBackend(backend);
      clusters.put(backend.name(), kernel);
      if (backend.refusesNetwork(NetworkBackend.toxiproxy(null)).isEmpty()) {
        clusters.put(backend.name() + "+toxiproxy", kernel.withNetwork(NetworkBackend.toxiproxy(null)));
      }
    }
    // what each cluster itself lacks is asked once (it probes Docker, a server, the kernel), not per fault kind
    Map<String, Optional<String>> clusterMissing = new LinkedHashMap<>();
    clusters.forEach((name, cluster) -> clusterMissing.put(name, missing(cluster)));
    List<KindRow> rows = new java.util.ArrayList<>();
    for (FaultKind kind : FaultKind.all()) {
      for (FaultKind.Example e : kind.examples().apply(Target.randomNode())) {
        Map<String, String> on = new LinkedHashMap<>();
        clusters.forEach((name, cluster) -> on.put(name, clusterMissing.get(name)
            .orElseGet(() -> verdict(e.fault(), cluster))));
        rows.add(new KindRow(e.label(), on));
      }
    }
    List<Check> backends = new java.util.ArrayList<>();
    for (Backend backend : Backends.all()) {
      List<String> p = backend.problems(ClusterSpec.defaults().withBackend(backend));
      backends.add(new Check(backend.name(), p.isEmpty() || backend.usesExistingCluster(),
          backend.usesExistingCluster() ? backend.summary() + " (its hosts are checked when it connects)"
              : p.isEmpty() ? backend.summary() : p.get(0)));
    }
    return new Report(Capability.isRoot(), uid(), cgroups.describe(), cgroups.problems(), checks, backends, rows);
  }

  static void print(PrintWriter out, Report r) {
    out.println("host: " + (r.root() ? "root" : "not root (uid " + r.uid() + ")"));
    out.println("cgroups: " + r.cgroups());
    r.cgroupNotes().forEach(p -> out.println("  note: " + p));
    out.println();
    out.printf("%-16s %-4s %s%n", "capability", "ok", "why not / how to get it");
    for (Check c : r.capabilities()) {
      out.printf("%-16s %-4s %s%n", c.name(), c.ok() ? "yes" : "no", c.detail());
    }
    out.println();
    out.printf("%-16s %-4s %s%n", "node backend", "ok", "what it is / why not");
    for (Check c : r.backends()) {
      out.printf("%-16s %-4s %s%n", c.name(), c.ok() ? "yes" : "no", c.detail());
    }
    out.println();
    if (r.faultKinds().isEmpty()) {
      return;
    }
    List<String> columns = new java.util.ArrayList<>(r.faultKinds().get(0).on().keySet());
    Map<String, Integer> width = new java.util.HashMap<>();
    for (String c : columns) {
      width.put(c, Math.max(c.length(), r.faultKinds().stream().mapToInt(k -> k.on().get(c).length()).max().orElse(0)));
    }
    StringBuilder head = new StringBuilder(String.format("%-18s", "fault kind"));
    columns.forEach(c -> head.append(' ').append(String.format("%-" + width.get(c) + "s", c)));
    out.println(head.toString().stripTrailing());
    for (KindRow k : r.faultKinds()) {
      StringBuilder line = new StringBuilder(String.format("%-18s", k.kind()));
      columns.forEach(c -> line.append(' ').append(String.format("%-" + width.get(c) + "s", k.on().get(c))));
      out.println(line.toString().stripTrailing());
    }
  }

  /** "no: " and what the cluster's backends lack on this host, or empty when they can start. */
  private static Optional<String> missing(ClusterSpec cluster) {
    for (NetworkBackend network : List.of(NetworkBackend.KERNEL, cluster.network())) {
      if (!Preconditions.problems(cluster.withNetwork(network)).isEmpty()) {
        return Optional.of("no: needs " + cluster.backend().requires(network));
      }
    }
    return Optional.empty();
  }

  /** "yes", or "no: " and why, for a fault on a cluster that can start here. */
  private static String verdict(Fault f, ClusterSpec plain) {
    // asked of the cluster a scenario with the kind would have: with disks and clocks of a node's own where the backend makes them
    ClusterSpec cluster = plain.disks() == null && plain.backend().refuses(Backend.Mechanism.NODE_DISK).isEmpty()
        ? plain.withDisks(ClusterSpec.Disks.of(1)) : plain;
    cluster = cluster.backend().refuses(Backend.Mechanism.NODE_CLOCK).isEmpty() ? cluster.withClocks(true) : cluster;
    if (f.unsupported(cluster).isPresent()) {
      return "no: not on this backend";
    }
    List<String> missing = f.needs(cluster).stream().filter(c -> !c.problems().isEmpty()).map(Capability::label).toList();
    return missing.isEmpty() ? "yes" : "no: needs " + String.join(", ", missing);
  }

  private static String uid() {
    try {
      return java.nio.file.Files.getAttribute(java.nio.file.Path.of("/proc/self"), "unix:uid").toString();
    } catch (java.io.IOException | RuntimeException e) {
      return "?";
    }
  }
}
