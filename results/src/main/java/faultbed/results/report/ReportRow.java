package faultbed.results.report;

import faultbed.results.RunRecord;
import faultbed.results.classify.Classification;

/** One run as the report shows it: its record, the file it came from, its group, its costs. */
record ReportRow(String fileName, RunRecord record, Classification classification, RunCosts costs) {}
