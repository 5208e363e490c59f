package faultbed.harness.timeline;

import faultbed.faults.Iptables;
import faultbed.faults.Ledger;
import faultbed.faults.TrafficControl;

/** What a fault needs besides its node: the run it belongs to (its tag) and the OS backends. */
public record FaultContext(String runId, Ledger ledger, Iptables iptables, TrafficControl trafficControl) {}
