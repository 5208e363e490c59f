package faultbed.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import faultbed.experiments.cli.FaultbedCli;
import faultbed.experiments.scenario.Scenario;
import faultbed.experiments.scenario.ScenarioParser;
import faultbed.faults.Cgroup;
import faultbed.harness.ClusterSpec;
import faultbed.harness.timeline.NodeCrash;
import faultbed.harness.timeline.Target;
import faultbed.harness.timeline.Timeline;
import faultbed.harness.timeline.Trigger;
import faultbed.harness.workload.Workloads;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Bad scenario files and arguments: one line naming the field, exit code 2, nothing started. */
class ScenarioValidationTest {
  private static final String GOOD = """
      { "name": "t", "cluster": { "nodes": 4 },
        "workload": { "type": "sort", "size": "64MB", "maps": 8, "reduces": 2 },
        "faults": [ { "kind": "crash", "node": "random", "at": { "uniform": ["5s", "30s"] } } ],
        "runs": 3, "seed": 7 }
      """;

  record Result(int code, String out, String err) {}

  static Result cli(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = FaultbedCli.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new Result(code, out.toString(), err.toString());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      malformed JSON          | { "name": "t", "workload": { "type": "sort" ,, } }                                   | scenario: expected valid JSON, but line 1
      unknown fault kind      | "faults": [ { "kind": "explode", "node": 0, "at": "5s" } ]                           | faults[0].kind: expected one of [crash, stop, rst-suppression, blackhole, bandwidth-cap, latency, packet-loss, packet-duplication, disk-load, cpu-hog, slow-node, memory-pressure, freeze, pause, partition, disk-full, disk-failure, slow-disk, corrupt-replica, clock-jump, clock-drift], got "explode"
      negative time           | "faults": [ { "kind": "crash", "node": 0, "at": { "uniform": ["-5s", "30s"] } } ]     | faults[0].at.uniform[0]: expected a non-negative duration
      reversed range          | "faults": [ { "kind": "crash", "node": 0, "at": { "uniform": ["30s", "5s"] } } ]      | faults[0].at.uniform: expected from <= to
      node out of range       | "faults": [ { "kind": "crash", "node": 9, "at": "5s" } ]                             | faults[0].node: expected a node index in 0..3, got 9
      unknown workload        | "workload": { "type": "terasort", "size": "1GB" }                                    | workload.type: expected one of [sort, wordcount, synthetic, elastic], got "terasort"
      misspelt field          | "cluster": { "nodez": 4 }                                                            | cluster.nodez: unknown field
      bad size                | "workload": { "type": "sort", "size": "lots" }                                       | workload.size: expected a size such as "64MB"
      duration without unit   | "faults": [ { "kind": "crash", "node": 0, "at": "5" } ]                              | faults[0].at: expected a duration such as
      zero maps               | "workload": { "type": "sort", "size": "1MB", "maps": 0 }                             | workload.maps: expected at least 1, got 0
      same as first fault     | "faults": [ { "kind": "crash", "node": "same", "at": "5s" } ]                        | faults[0].node: "same" means the node of the previous fault
      negative rate           | "faults": [ { "kind": "bandwidth-cap", "node": 1, "at": "5s", "rate": "-1MB/s" } ]    | faults[0].rate: expected a positive rate such as "1MB/s"
      rate without unit       | "faults": [ { "kind": "bandwidth-cap", "node": 1, "at": "5s", "rate": "1000" } ]     | faults[0].rate: expected a positive rate
      freeze without duration | "faults": [ { "kind": "freeze", "node": 1, "at": "5s" } ]                            | faults[0].for: expected how long the freeze lasts
      memory, no limit        | "faults": [ { "kind": "memory-pressure", "node": 1, "at": "5s", "hog": "64MB" } ]      | faults[0]: expected either "limit" (the node's memory limit) or "headroom"
      memory, both limits     | "faults": [ { "kind": "memory-pressure", "node": 1, "at": "5s", "limit": "1GB", "headroom": "64MB" } ] | faults[0].headroom: expected either "limit" (the node's memory limit) or "headroom"
      memory limit too small  | "faults": [ { "kind": "memory-pressure", "node": 1, "at": "5s", "limit": "1KB" } ]     | faults[0].limit: expected a memory limit of at least 1MB
      memory in simulation    | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "sim" }, "faults": [ { "kind": "memory-pressure", "node": 1, "at": "5s", "limit": "1GB" } ] } | faults[0].kind: the sim backend has no model of memory-pressure faults
      pause of nothing        | "faults": [ { "kind": "pause", "node": 1, "at": "5s", "for": "10s" } ]               | faults[0].of: expected one of
      pause of a datanode     | "faults": [ { "kind": "pause", "node": 1, "at": "5s", "for": "10s", "of": "datanode" } ] | faults[0].of: expected one of "nodemanager", "containers", "application-master", "map", "reduce", got "datanode"
      pause without duration  | "faults": [ { "kind": "pause", "node": 1, "at": "5s", "of": "map" } ]                | faults[0].for: expected how long the pause lasts
      pause a mini NodeManager | "faults": [ { "kind": "pause", "node": 1, "at": "5s", "for": "10s", "of": "nodemanager" } ] | faults[0].of: the mini backend's NodeManagers run inside the harness's own JVM
      partition on mini       | "faults": [ { "kind": "partition", "node": 1, "at": "5s", "from": "master" } ]        | faults[0].kind: the mini backend's nodes share the host's loopback address
      partition from nowhere  | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "namespace" }, "faults": [ { "kind": "partition", "node": 1, "at": "5s", "from": "rack" } ] } | faults[0].from: expected one of "master", "workers", "master-and-workers", got "rack"
      partition, no such peer | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "namespace", "nodes": 3 }, "faults": [ { "kind": "partition", "node": 1, "at": "5s", "from": "workers", "workers": [0, 3] } ] } | faults[0].workers: expected node indices below the cluster's 3 nodes, got 3
      partition, peers twice  | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "namespace" }, "faults": [ { "kind": "partition", "node": 1, "at": "5s", "from": "workers", "workers": [0, 0] } ] } | faults[0].workers: expected indices, at least one, none twice, such as [2, 3], got [0,0]
      disks, too many         | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "namespace", "disks": 5 } } | cluster.disks: expected at most 4 disks per node, got 5
      disks, on mini          | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "disks": 1 } } | cluster.disks: the mini backend's DataNodes keep their volumes where MiniDFSCluster puts them
      disks, size alone       | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "namespace", "diskSize": "1GB" } } | cluster.diskSize: expected with "disks" (how many disks each node has), got a size alone
      disks, too small        | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "namespace", "disks": 1, "diskSize": "1MB" } } | cluster.diskSize: expected at least 256MB per disk, got "1MB"
      disks, on containers    | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "containers", "disks": 2 } } | cluster.disks: the containers backend gives nodes no disks of their own
      disk-full, no disks     | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "namespace" }, "faults": [ { "kind": "disk-full", "node": 1, "at": "5s" } ] } | faults[0].kind: disk-full acts on disks of the node's own, and the cluster has none: expected cluster.disks (1 to 4) with it
      disk-failure, no disk 1 | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "namespace", "disks": 1 }, "faults": [ { "kind": "disk-failure", "node": 1, "at": "5s", "disks": [1] } ] } | faults[0].disks: expected disk indices below the 1 disks of each node (cluster.disks), got 1
      slow-disk, no disks     | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "namespace" }, "faults": [ { "kind": "slow-disk", "node": 1, "at": "5s" } ] } | faults[0].kind: slow-disk acts on disks of the node's own, and the cluster has none: expected cluster.disks (1 to 4) with it
      slow-disk, no disk 3    | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "namespace", "disks": 3 }, "faults": [ { "kind": "slow-disk", "node": 1, "at": "5s", "disks": [3] } ] } | faults[0].disks: expected disk indices below the 3 disks of each node (cluster.disks), got 3
      slow-disk, index -1     | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "namespace", "disks": 3 }, "faults": [ { "kind": "slow-disk", "node": 1, "at": "5s", "disks": [0, -1] } ] } | faults[0].disks[1]: expected an index, a whole number 0 or more, got -1
      slow-disk, rate unfit   | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "namespace", "disks": 1 }, "faults": [ { "kind": "slow-disk", "node": 1, "at": "5s", "rate": "slow" } ] } | faults[0].rate: expected
      slow-disk on mini       | { "workload": { "type": "sort", "size": "1MB" }, "faults": [ { "kind": "slow-disk", "node": 1, "at": "5s" } ] } | faults[0].kind: the mini backend's DataNodes keep their volumes where MiniDFSCluster puts
      disk-full, free unfit   | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "namespace", "disks": 1 }, "faults": [ { "kind": "disk-full", "node": 1, "at": "5s", "free": "lots" } ] } | faults[0].free: expected a size such as "64MB", got "lots"
      clocks, on mini         | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "clocks": true } } | cluster.clocks: the mini backend's NodeManagers run inside the harness's own JVM, on its clock
      clocks, not a flag      | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "namespace", "clocks": "yes" } } | cluster.clocks: expected true or false
      clock-jump, no clocks   | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "namespace" }, "faults": [ { "kind": "clock-jump", "node": 1, "at": "5s", "by": "+15m" } ] } | faults[0].kind: clock-jump moves the node's clock of its own, and the cluster's nodes read the machine's: expected cluster.clocks true with it
      clock-jump, no sign     | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "namespace", "clocks": true }, "faults": [ { "kind": "clock-jump", "node": 1, "at": "5s", "by": "15m" } ] } | faults[0].by: expected a signed duration such as "+15m" or "-90s", got "15m"
      clock-jump, zero        | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "namespace", "clocks": true }, "faults": [ { "kind": "clock-jump", "node": 1, "at": "5s", "by": "-0s" } ] } | faults[0].by: expected a signed duration such as "+15m" or "-90s" other than zero, got "-0s"
      clock-jump, no by       | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "namespace", "clocks": true }, "faults": [ { "kind": "clock-jump", "node": 1, "at": "5s" } ] } | faults[0].by: expected how far the clock is stepped
      clock-drift, speed 1    | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "namespace", "clocks": true }, "faults": [ { "kind": "clock-drift", "node": 1, "at": "5s", "speed": 1 } ] } | faults[0].speed: expected a number above 0 other than 1, such as 2 or 0.5, got 1
      corrupt-replica on mini | { "workload": { "type": "sort", "size": "1MB" }, "faults": [ { "kind": "corrupt-replica", "node": 1, "at": "0s" } ] } | faults[0].kind: the mini backend's DataNodes all answer at the host's address
      corrupt-replica, 0      | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "namespace" }, "faults": [ { "kind": "corrupt-replica", "node": 1, "at": "0s", "blocks": 0 } ] } | faults[0].blocks: expected
      duplication, on mini    | { "workload": { "type": "sort", "size": "1MB" }, "faults": [ { "kind": "packet-duplication", "node": 1, "at": "5s", "probability": 0.1 } ] } | faults[0].kind: the mini backend does not duplicate packets yet
      duplication, no share   | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "namespace" }, "faults": [ { "kind": "packet-duplication", "node": 1, "at": "5s", "probability": 1 } ] } | faults[0].probability: expected a probability above 0 and below 1
      clock-drift, on sim     | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "sim", "clocks": true } } | cluster.clocks: the sim backend's nodes share its one virtual clock
      partition, master peers | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "namespace" }, "faults": [ { "kind": "partition", "node": 1, "at": "5s", "from": "master", "workers": [0] } ] } | faults[0].workers: expected no workers with from "master"
      partition one way round | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "namespace" }, "faults": [ { "kind": "partition", "node": 1, "at": "5s", "from": "workers", "direction": "sideways" } ] } | faults[0].direction: expected one of "both", "inbound", "outbound", got "sideways"
      unknown node role       | "faults": [ { "kind": "cpu-hog", "node": "slowest", "at": "5s" } ]                   | faults[0].node: expected a node index or one of
      field of another kind   | "faults": [ { "kind": "cpu-hog", "node": 0, "at": "5s", "rate": "1MB/s" } ]          | faults[0].rate: unknown field
      empty slow node         | "faults": [ { "kind": "slow-node", "node": 0, "at": "0s" } ]                         | faults[0]: expected at least one of "cpu"
      crash with duration     | "faults": [ { "kind": "crash", "node": 0, "at": "5s", "for": "10s" } ]               | faults[0].for: a crash lasts until the run ends
      latency without delay   | "faults": [ { "kind": "latency", "node": 0, "at": "5s" } ]                           | faults[0].delay: expected a delay
      reorder on sim          | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "sim" }, "faults": [ { "kind": "latency", "node": 0, "at": "5s", "delay": "10ms", "reorder": 0.25 } ] } | faults[0].reorder: the sim backend's links add a delay to a transfer and keep no packets to reorder
      reorder by a proxy      | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "network": "toxiproxy" }, "faults": [ { "kind": "latency", "node": 0, "at": "5s", "delay": "10ms", "reorder": 0.25 } ] } | faults[0].kind: reorder: the toxiproxy backend delays a stream in order
      reorder all             | "faults": [ { "kind": "latency", "node": 0, "at": "5s", "delay": "10ms", "reorder": 1 } ] | faults[0].reorder: expected a probability above 0 and below 1
      loss without probability | "faults": [ { "kind": "packet-loss", "node": 0, "at": "5s" } ]                      | faults[0].probability: expected a probability above 0 and below 1, such as 0.05 or "5%"
      loss of all packets     | "faults": [ { "kind": "packet-loss", "node": 0, "at": "5s", "probability": 1 } ]     | faults[0].probability: expected a probability above 0 and below 1, such as 0.05 or "5%", got 1
      loss of 100 percent     | "faults": [ { "kind": "packet-loss", "node": 0, "at": "5s", "probability": "100%" } ] | faults[0].probability: expected a probability above 0 and below 1, such as 0.05 or "5%", got "100%"
      spareAm on an index     | "faults": [ { "kind": "crash", "node": 2, "at": "5s", "spareAm": true } ]            | faults[0].spareAm: applies to "random", "most-maps"
      spareAm on the AM       | "faults": [ { "kind": "crash", "node": "application-master", "at": "5s", "spareAm": true } ] | faults[0].spareAm: applies to "random", "most-maps", "running-reducer" and "holding-map-outputs", not to a node index, "application-master"
      spareReducers on reducers | "faults": [ { "kind": "crash", "node": "running-reducer", "at": "5s", "spareReducers": true } ] | faults[0].spareReducers: applies to "random", "most-maps" and "holding-map-outputs", not to a node index, "running-reducer"
      spareReducers not boolean | "faults": [ { "kind": "crash", "node": "most-maps", "at": "5s", "spareReducers": "yes" } ] | faults[0].spareReducers: expected true or false
      unknown event           | "faults": [ { "kind": "crash", "node": 0, "at": { "event": "lunch" } } ]             | faults[0].at.event: expected "maps-completed", "maps-running" or "reducer-in-shuffle"
      unknown policy          | { "workload": { "type": "sort", "size": "1MB" }, "speculation": "fastest" }          | speculation: expected "off", "hadoop3", "hadoop3/<estimator>", a policy name (hadoop-0.21, late, late-history, samr, base)
      unknown estimator       | { "workload": { "type": "sort", "size": "1MB" }, "speculation": "hadoop3/magic" }    | speculation: expected an estimator (exponential, legacy, simple-exponential) or a class on the classpath, got "magic" (not found)
      not a speculator        | { "workload": { "type": "sort", "size": "1MB" }, "speculation": { "speculator": "java.lang.String" } } | speculation: expected a class implementing org.apache.hadoop.mapreduce.v2.app.speculate.Speculator, got java.lang.String
      missing policy class    | { "workload": { "type": "sort", "size": "1MB" }, "variants": { "a": { "speculation": { "policy": "com.example.Missing" } } } } | variants.a.speculation: unknown speculation policy "com.example.Missing"
      policy param not number | { "workload": { "type": "sort", "size": "1MB" }, "speculation": { "policy": "late", "params": { "slowTaskThreshold": "high" } } } | speculation.params.slowTaskThreshold: expected a number, got "high"
      unknown stealing        | { "workload": { "type": "elastic", "maps": 2 }, "variants": { "a": { "stealing": "fcm" } } } | variants.a.stealing: expected off or one of [strict, even, first-come-most, shortest-time-left-most, longest-time-left-most], got "fcm"
      stealing on mini        | { "workload": { "type": "elastic", "maps": 2 }, "stealing": "even" }                   | stealing: expected off on the mini backend: holding containers to a CPU share needs
      unknown placement       | { "workload": { "type": "sort", "size": "1MB" }, "variants": { "a": { "placement": "fastest" } } } | variants.a.placement: expected one of [stock, min-completion, max-completion], got "fastest"
      placement on mini       | { "workload": { "type": "sort", "size": "1MB" }, "placement": "min-completion" }       | placement: expected stock on the mini backend: network-aware placement needs NodeManagers
      elastic without units   | { "workload": { "type": "elastic", "units": 0 } }                                       | workload.units: expected at least 1, got 0
      policy param misspelled | { "workload": { "type": "sort", "size": "1MB" }, "speculation": { "policy": "late", "params": { "slowTaskTreshold": 20 } } } | speculation.params.slowTaskTreshold: "late" has no such parameter
      zero time scale         | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "timeScale": 0 } }     | cluster.timeScale: expected a number in (0, 1]
      pin not a list          | { "workload": { "type": "sort", "size": "1MB" }, "pin": "am" }                        | pin: expected a list of parts to pin, e.g. ["am", "reduces"], got "am"
      pin an unknown part     | { "workload": { "type": "sort", "size": "1MB" }, "pin": ["am", "maps"] }              | pin[1]: expected one of "am", "reduces", got "maps"
      pin a part twice        | { "workload": { "type": "sort", "size": "1MB" }, "variants": { "a": { "pin": ["am", "am"] } } } | variants.a.pin[1]: expected each part once, got "am" again
      pin two on one node     | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "nodes": 1 }, "pin": ["am", "reduces"] } | pin: each pinned part takes nodes of its own (a YARN node carries one label); expected at least 2 nodes, got 1
      pin on the sim backend  | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "sim" }, "pin": ["am"] } | pin: the sim backend places containers with an allocator of its own
      zero concurrent jobs    | "workload": { "type": "sort", "size": "64MB", "concurrentJobs": 0 }                     | workload.concurrentJobs: expected at least 1, got 0
      unknown network         | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "network": "docker" } } | cluster.network: expected "kernel", "toxiproxy" or {"toxiproxy": "http://127.0.0.1:8474"}, got "docker"
      bad toxiproxy address   | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "network": { "toxiproxy": "localhost" } } } | cluster.network.toxiproxy: expected an API address like http://127.0.0.1:8474, got "localhost"
      rst on toxiproxy        | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "network": "toxiproxy" }, "variants": { "a": { "faults": [ { "kind": "rst-suppression", "node": 1, "at": "5s" } ] } } } | variants.a.faults[0].kind: the toxiproxy backend cannot hide a live port's RSTs
      loss on toxiproxy       | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "network": "toxiproxy" }, "faults": [ { "kind": "packet-loss", "node": 1, "at": "5s", "probability": 0.01 } ] } | faults[0].kind: the toxiproxy backend sees a stream, not packets
      loss in simulation      | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "sim" }, "faults": [ { "kind": "packet-loss", "node": 1, "at": "5s", "probability": 0.01 } ] } | faults[0].kind: the sim backend has no model of packet-loss faults
      disk limit in Docker    | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "containers" }, "faults": [ { "kind": "slow-node", "node": 0, "at": "0s", "readRate": "10MB/s" } ] } | faults[0].readRate: the containers backend limits a node's CPU only
      inventory, local nodes  | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "inventory": "lab.json" } } | cluster.inventory: an inventory names a cluster faultbed did not start; expected backend "remote" with it, got backend "mini"
      no inventory file       | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "remote", "inventory": "nowhere.json" } } | cluster.inventory: nowhere.json: inventory: file
      your proxy, own nodes   | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "containers", "network": { "toxiproxy": "http://127.0.0.1:8474" } } } | cluster.network.toxiproxy: the containers backend runs a Toxiproxy server inside each node's network
      duplicate key           | { "name": "t", "name": "u", "workload": { "type": "sort", "size": "1MB" } }           | Duplicate field 'name'
      trailing content        | { "workload": { "type": "sort", "size": "1MB" } } runs                                | scenario: expected valid JSON
      second document         | { "workload": { "type": "sort", "size": "1MB" } } { "runs": 2 }                       | scenario: expected valid JSON
      too many nodes          | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "nodes": 100000 } }     | cluster.nodes: expected at most
      too much input          | { "workload": { "type": "sort", "size": "999999TB" } }                                | workload.size: expected at most
      runs in exponent form   | { "workload": { "type": "sort", "size": "1MB" }, "runs": 1e9 }                        | runs: expected an integer, got 1.0E9
      too many runs           | { "workload": { "type": "sort", "size": "1MB" }, "runs": 1000000000 }                 | runs: expected at most 10000 runs per variant, got 1000000000
      zero runs               | { "workload": { "type": "sort", "size": "1MB" }, "runs": 0 }                          | runs: expected at least 1, got 0
      zero runs of a variant  | { "workload": { "type": "sort", "size": "1MB" }, "variants": { "a": { "runs": 0 } } }  | variants.a.runs: expected at least 1, got 0
      empty name              | { "name": " ", "workload": { "type": "sort", "size": "1MB" } }                        | name: expected a name of at least one character
      fractional node         | "faults": [ { "kind": "crash", "node": 1.5, "at": "5s" } ]                           | faults[0].node: expected a node index (an integer) or one of
      fractional maps         | "workload": { "type": "sort", "size": "1MB", "maps": 2.5 }                           | workload.maps: expected an integer, got 2.5
      unknown reference       | { "workload": { "type": "sort", "size": "1MB" }, "reference": "base", "variants": { "a": {}, "b": {} } } | reference: expected one of the variants [a, b], got "base"
      more cores than here    | "faults": [ { "kind": "slow-node", "node": 0, "at": "0s", "cpu": 7000.5 } ]          | faults[0].cpu: expected at most
      slowdown of no map      | { "workload": { "type": "synthetic", "maps": 4, "slowdowns": [ { "map": 4, "profile": [ { "from": 0, "factor": 2 } ] } ] } } | workload.slowdowns[0].map: expected a map index below 4 (the workload's maps), got 4
      profile out of order    | { "workload": { "type": "synthetic", "maps": 4, "slowdowns": [ { "map": 0, "profile": [ { "from": 0.5, "factor": 2 }, { "from": 0.2, "factor": 3 } ] } ] } } | workload.slowdowns[0].profile[1].from: expected more than 0.5 (steps in increasing progress), got 0.2
      speed-up factor         | { "workload": { "type": "synthetic", "maps": 4, "slowdowns": [ { "map": 0, "profile": [ { "from": 0.5, "factor": 0.5 } ] } ] } } | workload.slowdowns[0].profile[0].factor: expected a slow-down factor in [1, 1000000], got 0.5
      same attempt twice      | { "workload": { "type": "synthetic", "maps": 4, "slowdowns": [ { "map": 1, "profile": [ { "from": 0, "factor": 2 } ] }, { "map": 1, "attempt": 0, "profile": [ { "from": 0, "factor": 3 } ] } ] } } | workload.slowdowns[1]: map 1 attempt 0 already has a profile (workload.slowdowns[0])
      unknown expectation     | { "workload": { "type": "sort", "size": "1MB" }, "expect": { "speculates": true } } | expect.speculates: unknown field; expected one of [backedUp, failedMaps, speculated, state]
      variant's bad state     | { "workload": { "type": "sort", "size": "1MB" }, "variants": { "a": { "expect": { "state": "DONE" } } } } | variants.a.expect.state: expected one of [FAILED, KILLED, SUCCEEDED], got "DONE"
      zero job limit          | { "workload": { "type": "sort", "size": "1MB" }, "variants": { "a": { "jobLimit": "0s" } } } | variants.a.jobLimit: expected a duration above zero
      negative failed maps    | { "workload": { "type": "sort", "size": "1MB" }, "expect": { "failedMaps": -1 } } | expect.failedMaps: expected a count of 0 or more, got -1
      unknown field, no name  | { "": 1, "workload": { "type": "sort", "size": "1MB" } }                              | "": unknown field; expected one of
      line break in a field   | { "a\\nb": 1, "workload": { "type": "sort", "size": "1MB" } }                         | "a\\nb": unknown field; expected one of
      line break in a value   | { "workload": { "type": "sort", "size": "1MB" }, "speculation": "la\\nte" }           | base) or {"policy": ..., "params": {...}} or {"speculator": class}, got "la\\nte"
      node beyond an int      | "faults": [ { "kind": "crash", "node": 4294967296, "at": "5s" } ]                     | faults[0].node: expected a node index in 0..3, got 4294967296
      maps beyond an int      | "workload": { "type": "sort", "size": "1MB", "maps": 4294967297 }                     | workload.maps: expected at most 2147483647, got 4294967297
      seed beyond a long      | { "workload": { "type": "sort", "size": "1MB" }, "seed": 9223372036854775808 }        | seed: expected an integer from -9223372036854775808 to 9223372036854775807, got 9223372036854775808
      container above node    | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "nodeMemoryMb": 1024, "containerMemoryMb": 2048 } } | cluster.containerMemoryMb: expected at most nodeMemoryMb (1024), got 2048
      variant's container     | { "workload": { "type": "sort", "size": "1MB" }, "variants": { "a": { "cluster": { "containerMemoryMb": 999999 } } } } | variants.a.cluster.containerMemoryMb: expected at most nodeMemoryMb
      NUL in an inventory path | { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "backend": "remote", "inventory": "lab\\u0000.json" } } | cluster.inventory: expected a path, got "lab\\u0000.json" (Nul character not allowed)
      """)
  void badScenarioGivesOneLineExitTwoAndStartsNothing(String what, String change, String expected,
      @TempDir Path dir) throws IOException {
    Path file = dir.resolve("bad.json");
    Files.writeString(file, change.startsWith("{") ? change : patch(change));
    List<String> groupsBefore = Cgroup.instances();
    Path out = dir.resolve("out");

    Result r = cli("run", file.toString(), "--out", out.toString());

    assertEquals(2, r.code(), what + ": " + r.err());
    assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());
    assertTrue(r.err().contains(expected), "expected '" + expected + "' in: " + r.err());
    assertFalse(Files.exists(out), "no output folder");
    assertEquals(groupsBefore, Cgroup.instances(), "no cluster started");
  }

  /** Replaces one top-level field of the good scenario. */
  private static String patch(String field) {
    String key = field.substring(0, field.indexOf(':')).trim();
    String good = GOOD;
    int at = good.indexOf(key);
    int end = key.equals("\"faults\"") ? good.indexOf("],", at) + 1
        : good.indexOf("}", at) + 1;
    return good.substring(0, at) + field + good.substring(end);
  }

  @Test
  void aToxiproxyServerThatDoesNotAnswerIsNamedBeforeAnythingStarts(@TempDir Path dir) throws IOException {
    int closed;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      closed = s.getLocalPort();
    }
    Path file = Files.writeString(dir.resolve("proxied.json"), """
        { "workload": { "type": "sort", "size": "1MB" }, "cluster": { "network": { "toxiproxy": "http://127.0.0.1:%d" } } }
        """.formatted(closed));
    List<String> groupsBefore = Cgroup.instances();

    Result r = cli("run", file.toString(), "--out", dir.resolve("out").toString());

    assertEquals(3, r.code(), r.err());
    assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());
    assertTrue(r.err().contains("the Toxiproxy server at http://127.0.0.1:" + closed + " does not answer"), r.err());
    assertEquals(groupsBefore, Cgroup.instances(), "no cluster started");
  }

  @Test
  void aFaultTheHostCannotMakeIsNamedWithWhatItNeedsBeforeAnythingStarts(@TempDir Path dir) throws IOException {
    Path file = Files.writeString(dir.resolve("slow.json"), """
        { "workload": { "type": "sort", "size": "1MB" },
          "faults": [ { "kind": "slow-node", "node": "random", "cpu": 0.5, "at": { "uniform": ["1s", "2s"] } } ] }
        """);
    System.setProperty("faultbed.cgroup.use", "none"); // a host where no cgroup is available
    faultbed.faults.CgroupLayout.reload();
    try {
      List<String> groupsBefore = Cgroup.instances();
      Result r = cli("run", file.toString(), "--out", dir.resolve("out").toString());
      assertEquals(3, r.code(), r.err());
      assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());
      assertTrue(r.err().contains("fault \"slow-node\"") && r.err().contains("no CPU controller"), r.err());
      assertEquals(groupsBefore, Cgroup.instances(), "no cluster started");
    } finally {
      System.clearProperty("faultbed.cgroup.use");
      faultbed.faults.CgroupLayout.reload();
    }
  }

  @Test
  void badArgumentsExitTwo(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("good.json");
    Files.writeString(file, GOOD);
    Result r = cli("run", file.toString(), "--runs", "0", "--out", dir.resolve("o").toString());
    assertEquals(2, r.code());
    assertTrue(r.err().contains("--runs: expected at least 1, got 0"), r.err());
    assertEquals(2, cli("run", file.toString(), "--runs", "many").code());
    assertEquals(2, cli("run", dir.resolve("missing.json").toString()).code());
    assertEquals(2, cli("explode").code());
    Result noInventory = cli("run", file.toString(), "--inventory", dir.resolve("lab.json").toString());
    assertEquals(2, noInventory.code(), noInventory.err());
    assertTrue(noInventory.err().contains("--inventory: " + dir.resolve("lab.json") + ": inventory: file"), noInventory.err());
    Result localDryRun = cli("run", file.toString(), "--dry-run");
    assertEquals(2, localDryRun.code(), localDryRun.err());
    assertTrue(localDryRun.err().contains("--dry-run: expected a scenario on the remote backend"), localDryRun.err());
    Result twoBackends = cli("run", file.toString(), "--backend", "namespace", "--inventory", "lab.json");
    assertEquals(2, twoBackends.code(), twoBackends.err());
    assertTrue(twoBackends.err().contains("--inventory: names a cluster faultbed did not start"), twoBackends.err());
    Result missing = cli("run", dir.resolve("missing.json").toString());
    assertTrue(missing.err().contains("does not exist"), missing.err());
    Path aFile = Files.writeString(dir.resolve("a-file"), "");
    Result outIsAFile = cli("run", file.toString(), "--out", aFile.toString());
    assertEquals(2, outIsAFile.code());
    assertEquals("faultbed: --out: expected a folder, but " + aFile + " is a file", outIsAFile.err().strip());
    assertTrue(outIsAFile.out().isEmpty(), "one line, nothing on standard output: " + outIsAFile.out());
  }

  /** 'cluster' arguments and faults for a running cluster: refused with one line before any cluster starts or is asked. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      no subcommand            | cluster                                                   | Missing required subcommand
      no nodes                 | cluster up --nodes 0 --dir DIR                            | --nodes: expected at least 1, got 0
      too many nodes           | cluster up --nodes 100000 --dir DIR                       | --nodes: expected at most
      variant without scenario | cluster up --variant crash --dir DIR                      | --variant: names a variant of a scenario
      unknown backend          | cluster up --backend docker --dir DIR                     | --backend: expected
      a remote cluster is up   | cluster up --backend remote --dir DIR                     | --backend: 'cluster up' starts a cluster
      empty setting            | cluster up -D mapreduce.map.speculative= --dir DIR        | -D: expected KEY=VALUE
      fault without a cluster  | cluster fault {"kind":"crash","node":1} --dir DIR         | --dir: no cluster is up in
      down without a cluster   | cluster down --dir DIR                                    | --dir: no cluster is up in
      status without a cluster | cluster status --dir DIR                                  | --dir: no cluster is up in
      """)
  void badClusterArgumentsExitTwoAndStartNothing(String what, String args, String expected, @TempDir Path dir) {
    Result r = cli(args.replace("DIR", dir.resolve("c").toString()).split(" "));
    assertEquals(2, r.code(), what + ": " + r.out() + r.err());
    assertTrue(r.err().contains(expected), what + ": " + r.err());
    assertTrue(r.out().isEmpty(), what + ": nothing on standard output: " + r.out());
    assertFalse(Files.exists(dir.resolve("c").resolve("cluster.json")), what + ": no cluster started");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      not JSON              | crash 1                                                  | fault: expected a JSON object such as
      trailing content      | {"kind": "crash", "node": 1} {}                          | fault: expected a JSON object such as
      a time                | {"kind": "crash", "node": 1, "at": "5s"}                 | fault.at: a fault on a running cluster fires at once
      a job's role          | {"kind": "crash", "node": "holding-map-outputs"}         | fault.node: expected a node index, "random"
      out of range          | {"kind": "crash", "node": 4}                             | fault.node: expected a node index in 0..3, got 4
      a crash with a length | {"kind": "crash", "node": 1, "for": "5s"}                | fault.for: a crash lasts until the cluster is healed
      a fraction of a node  | {"kind": "freeze", "node": 1.5, "for": "5s"}             | fault.node: expected a node index (an integer)
      freeze without length | {"kind": "freeze", "node": 1}                            | fault.for: expected how long the freeze lasts
      """)
  void aBadFaultForARunningClusterIsNamed(String what, String fault, String expected) {
    var e = org.junit.jupiter.api.Assertions.assertThrows(faultbed.experiments.scenario.ScenarioException.class,
        () -> faultbed.experiments.scenario.ScenarioParser.liveFault(fault, 4), what);
    assertTrue(e.getMessage().startsWith(expected), what + ": " + e.getMessage());
  }

  @Test
  void everyCommandHasHelp() {
    for (String command : new picocli.CommandLine(new FaultbedCli()).getSubcommands().keySet()) {
      if (command.equals("help")) {
        continue;
      }
      Result r = cli(command, "--help");
      assertEquals(0, r.code(), command + " --help: " + r.err());
      assertTrue(r.out().contains("Usage: faultbed " + command), command + " --help printed: " + r.out() + r.err());
      // a lone '%' in a description makes picocli print it raw, its line breaks as "%n"
      assertFalse(r.out().contains("%n"), command + " --help: a description picocli could not format: " + r.out());
    }
  }

  @Test
  void noCommandIsUsageOnTheErrorStreamAndExitTwo() {
    Result r = cli();
    assertEquals(2, r.code());
    assertTrue(r.err().contains("Usage: faultbed") && r.err().contains("Exit codes:"), r.err());
  }

  @Test
  void validateChecksEveryFileAndStartsNothing(@TempDir Path dir) throws IOException {
    Path good = dir.resolve("good.json");
    Files.writeString(good, GOOD.replace("{ \"name\": \"t\",", "{ \"$schema\": \"../scenario.schema.json\", \"name\": \"t\","));
    Path bad = dir.resolve("bad.json");
    Files.writeString(bad, "{ \"workload\": { \"type\": \"sort\", \"size\": \"1MB\" }, \"runs\": 0 }");
    List<String> groupsBefore = Cgroup.instances();
    Result ok = cli("validate", good.toString());
    assertEquals(0, ok.code(), ok.err());
    assertTrue(ok.out().contains(good + ": valid: t, 1 variant(s), 3 run(s) in 3 block(s), 1 cluster start(s)"), ok.out());
    Result mixed = cli("validate", good.toString(), bad.toString());
    assertEquals(2, mixed.code());
    assertEquals("faultbed: " + bad + ": runs: expected at least 1, got 0", mixed.err().strip());
    assertEquals(groupsBefore, Cgroup.instances(), "no cluster started");
  }

  @Test
  void anInternalErrorIsOneLineExitFourAndItsStackTraceIsInALog() throws IOException {
    StringWriter err = new StringWriter();
    picocli.CommandLine cli = FaultbedCli.commandLine(new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
    cli.addSubcommand("fail", new picocli.CommandLine(new Failing()));
    assertEquals(4, cli.execute("fail"));
    String line = err.toString().strip();
    assertEquals(1, line.lines().count(), line);
    assertTrue(line.startsWith("faultbed: internal error: java.lang.IllegalStateException: a bug (stack trace in "), line);
    Path log = Path.of(line.substring(line.indexOf("stack trace in ") + 15, line.length() - 1));
    assertTrue(Files.readString(log).contains("at faultbed.experiments.ScenarioValidationTest$Failing.call"), log.toString());
    Files.delete(log);
  }

  @picocli.CommandLine.Command(name = "fail")
  static final class Failing implements java.util.concurrent.Callable<Integer> {
    @Override
    public Integer call() {
      throw new IllegalStateException("a bug");
    }
  }

  @Test
  void everyBundledScenarioIsValid() throws IOException {
    try (Stream<Path> files = Stream.of(Path.of("scenarios"), Path.of("..", "ci", "scenarios"), Path.of("..", "ci", "sim"))
        .flatMap(dir -> {
          try {
            return Files.list(dir);
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        })) {
      List<Path> all = files.filter(p -> p.toString().endsWith(".json")).toList();
      assertFalse(all.isEmpty());
      for (Path p : all) {
        Scenario s = ScenarioParser.parse(p);
        assertTrue(s.totalRuns() > 0, p.toString());
      }
    }
  }

  @Test
  void concurrentJobsIsAWorkloadFieldVariantsInherit() throws IOException {
    Scenario s = ScenarioParser.parse(Path.of("scenarios", "dinu-ng-concurrent.json"));
    assertTrue(s.variants().stream().allMatch(v -> v.workload().concurrentJobs() == 2));
    assertEquals("2", s.variants().get(0).workload().parameters().get("concurrentJobs"));
  }

  @Test
  void theQuickstartFileAndTheBuilderMakeTheSameScenario() {
    Scenario fromFile = ScenarioParser.parse(Path.of("scenarios", "quickstart.json"));
    ClusterSpec cluster = ClusterSpec.nodes(4)
        .withHadoop("yarn.nm.liveness-monitor.expiry-interval-ms", "20000")
        .withHadoop("yarn.client.nodemanager-connect.max-wait-ms", "10000")
        .withHadoop("yarn.client.nodemanager-connect.retry-interval-ms", "2000")
        .withHadoop("mapreduce.reduce.shuffle.connect.timeout", "15000");
    Scenario built = Scenario.builder("quickstart")
        .cluster(cluster)
        .workload(Workloads.sort(32L << 20).withMaps(4).withReduces(2))
        .timeline(Timeline.when(Trigger.uniform(Duration.ofSeconds(6), Duration.ofSeconds(12)))
            .inject(NodeCrash.on(Target.randomNode())))
        .seed(7)
        .warmup(1)
        .variant("baseline", v -> v.timeline(Timeline.none()).runs(1))
        .variant("crash", v -> v.runs(2))
        .build();
    assertEquals(built.seed(), fromFile.seed());
    assertEquals(built.warmupRuns(), fromFile.warmupRuns());
    assertEquals(built.variants().size(), fromFile.variants().size());
    for (int i = 0; i < built.variants().size(); i++) {
      var a = built.variants().get(i);
      var b = fromFile.variants().get(i);
      assertEquals(a.name(), b.name());
      assertEquals(a.cluster(), b.cluster());
      assertEquals(a.workload().parameters(), b.workload().parameters());
      assertEquals(a.timeline(), b.timeline());
      assertEquals(a.runs(), b.runs());
    }
    assertEquals(built.runSeed(3), fromFile.runSeed(3));
  }
}
