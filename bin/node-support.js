// Which Node.js versions switchdesk runs on, checked before anything else is loaded (the
// native modules would otherwise fail on an old Node.js with a message about themselves).
// The tested lines are those of package.json "engines"; keep the two in step.
"use strict";

/** [major, lowest minor] of each tested line, oldest first */
const TESTED = [
  [20, 19],
  [22, 0],
  [24, 0],
];

const SUPPORTED_TEXT = "Node.js 20 (20.19 or later), 22 or 24 (24 LTS recommended)";

/**
 * What to tell the user about a Node.js version such as "v24.21.0": null when it is a
 * tested one, { refuse: true, message } when switchdesk cannot run on it (older than the
 * oldest tested line), { refuse: false, message } for a newer or in-between one that is
 * not tested (it starts, with a warning).
 */
function nodeSupport(version) {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(String(version));
  if (!m)
    return {
      refuse: false,
      message: `switchdesk: cannot read the Node.js version '${version}'; it is tested on ${SUPPORTED_TEXT}`,
    };
  const [major, minor] = [Number(m[1]), Number(m[2])];
  const shown = `${m[1]}.${m[2]}.${m[3]}`;
  const line = TESTED.find(([tested]) => tested === major);
  if (line && minor >= line[1]) return null;
  const [oldestMajor, oldestMinor] = TESTED[0];
  if (major < oldestMajor || (major === oldestMajor && minor < oldestMinor)) {
    return {
      refuse: true,
      message:
        `switchdesk needs ${SUPPORTED_TEXT}; this is Node.js ${shown}. ` +
        "Install a supported Node.js, then run `npm ci` again (the native modules are built for the Node.js that installs them).",
    };
  }
  return { refuse: false, message: `switchdesk is tested on ${SUPPORTED_TEXT}, not on Node.js ${shown}; it may work` };
}

module.exports = { nodeSupport, TESTED };
