package faultbed.harness.timeline;

import faultbed.faults.Ledger;
import faultbed.faults.NetworkFaults;

/** What a fault needs besides its node: the run it belongs to (its tag), the ledger, the network backend. */
public record FaultContext(String runId, Ledger ledger, NetworkFaults network) {}
