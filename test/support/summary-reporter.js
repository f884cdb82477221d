// CI reads a plain closing line rather than Jest's own summary. With
// SWITCHDESK_RECORD_DURATIONS=1 (npm run test:durations) a whole run also writes each
// suite's duration to test/support/suite-durations.json, the order a fresh clone starts
// suites in (test/support/sequencer.js).
const fs = require("node:fs");
const { suiteKey, recordedFile } = require("./sequencer");

/** suites shorter than this are left out of the file: the sequencer takes them as short anyway */
const RECORD_FROM_MS = 2000;

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    if (process.env.SWITCHDESK_RECORD_DURATIONS === "1") recordDurations(results);
    process.stdout.write(`\n${results.numPassedTests} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}

function recordDurations(results) {
  const rows = [];
  for (const r of results.testResults) {
    const ms = r.perfStats.end - r.perfStats.start;
    if (ms >= RECORD_FROM_MS)
      rows.push([suiteKey(r.displayName?.name ?? "", r.testFilePath), Math.round(ms / 100) * 100]);
  }
  rows.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  fs.writeFileSync(recordedFile, `${JSON.stringify(Object.fromEntries(rows), null, 2)}\n`);
  process.stdout.write(`\n${rows.length} suite durations written to test/support/suite-durations.json\n`);
}

module.exports = SummaryReporter;
