// The order suites start in. Two workers finish together only when the long suites start
// first: Jest orders by the durations it cached on this machine, and a fresh clone (every
// CI run) has none, so it fell back to file size and a 30-second suite could start last.
// Here a suite's duration is Jest's cached one when there is one, else the one recorded in
// test/support/suite-durations.json (written by `npm run test:durations` from a full
// run), else one second: unknown suites are short ones, and they fill the end.
const fs = require("node:fs");
const path = require("node:path");
const Sequencer = require("@jest/test-sequencer").default;

const recordedFile = path.join(__dirname, "suite-durations.json");
const root = path.resolve(__dirname, "..", "..");

/** "project path" as the durations file and the summary reporter name a suite */
function suiteKey(project, file) {
  return `${project} ${path.relative(root, file).split(path.sep).join("/")}`;
}

function readRecorded() {
  try {
    return JSON.parse(fs.readFileSync(recordedFile, "utf8"));
  } catch {
    return {};
  }
}

class DurationSequencer extends Sequencer {
  constructor(...args) {
    super(...args);
    this.recorded = readRecorded();
  }

  time(test) {
    const cached = super.time(test);
    if (cached != null) return cached;
    const project = test.context.config.displayName?.name ?? "";
    return this.recorded[suiteKey(project, test.path)] ?? 1000;
  }
}

module.exports = DurationSequencer;
module.exports.suiteKey = suiteKey;
module.exports.recordedFile = recordedFile;
