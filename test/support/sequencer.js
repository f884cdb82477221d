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

  /**
   * The default order (failed first, then longest first), with the cluster project's suites
   * spread out: they wait on database servers they start (a Galera cluster, MariaDB restarts,
   * service processes), so with all of them started together at the top of the list, as
   * their durations put them, the workers waited while the cores had work to give. Each one
   * now follows one suite of another project. The bench's load run (it keeps both cores
   * busy for its seconds of load, by design) comes a third of the list after the others:
   * beside it, the instances of the Galera and scale-out scenarios, which hold 2-second write
   * leases, renewed late enough once for a lease to lapse in the middle of a write.
   */
  sort(tests) {
    const ordered = super.sort(tests);
    const isCluster = (test) => test.context.config.displayName?.name === "cluster";
    const isLoadRun = (test) => path.basename(test.path) === "bench-scale-out.test.ts";
    const waiting = ordered.filter((test) => isCluster(test) && !isLoadRun(test));
    const load = ordered.filter((test) => isCluster(test) && isLoadRun(test));
    const others = ordered.filter((test) => !isCluster(test));
    const spread = [];
    for (const test of others) {
      spread.push(test);
      if (waiting.length) spread.push(waiting.shift());
    }
    spread.push(...waiting);
    const lastWaiting = spread.findLastIndex((test) => isCluster(test));
    spread.splice(Math.min(spread.length, lastWaiting + 1 + Math.floor(others.length / 3)), 0, ...load);
    return spread;
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
