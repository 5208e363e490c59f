package faultbed.results.report;

import faultbed.results.RunRecord;
import faultbed.results.RunRecord.FaultEvent;
import faultbed.results.classify.Classification;
import faultbed.results.classify.Mechanism;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** One row per run (RFC 4180), for spreadsheets and data frames; times in seconds after submission. */
final class RunsCsv {
  static final String HEADER = "run_id,record_file,variant,run_index,seed,job_state,job_succeeded,"
      + "completion_s,fault_kind,fault_node,failure_s,node_unusable_s,group,recovery,mechanisms,"
      + "speculative_attempts,reexecuted_attempts,wasted_container_s,fetch_failure_reports,evidence";

  private RunsCsv() {}

  static String of(List<ReportRow> rows) {
    StringBuilder sb = new StringBuilder(HEADER).append("\r\n");
    for (ReportRow row : rows) {
      RunRecord r = row.record();
      Classification c = row.classification();
      FaultEvent f = r.faults().stream().filter(x -> x.injectedMs() != null).findFirst().orElse(null);
      Long unusable = f == null ? null : r.nodeTransitions().stream()
          .filter(t -> t.node() == f.node() && t.atMs() >= f.injectedMs()).map(t -> t.atMs()).findFirst().orElse(null);
      List<Object> cells = Arrays.asList(
          r.runId(), row.fileName(), r.variant(), r.runIndex(), r.seed(),
          r.job() == null ? "" : r.job().state(), r.job() != null && r.job().succeeded(),
          seconds(r.job() == null ? null : r.job().finishedMs()),
          f == null ? "" : f.kind(), f == null ? "" : f.node(), seconds(f == null ? null : f.injectedMs()),
          seconds(unusable), c.group().label(), c.recovery().label(),
          c.mechanisms().stream().map(Mechanism::label).collect(Collectors.joining("; ")),
          row.costs().speculativeAttempts(), row.costs().reexecutedAttempts(),
          String.format(Locale.ROOT, "%.3f", row.costs().wastedContainerSeconds()),
          r.fetchFailures().size(), String.join(" | ", c.evidence()));
      sb.append(cells.stream().map(o -> quote(o == null ? "" : String.valueOf(o))).collect(Collectors.joining(","))).append("\r\n");
    }
    return sb.toString();
  }

  private static String seconds(Long ms) {
    return ms == null ? "" : String.format(Locale.ROOT, "%.3f", ms / 1000.0);
  }

  private static String quote(String cell) {
    boolean needs = cell.contains(",") || cell.contains("\"") || cell.contains("\n") || cell.contains("\r");
    return needs ? "\"" + cell.replace("\"", "\"\"") + "\"" : cell;
  }
}
