// Jest globalSetup of the API and cluster projects: the build in dist/ for the suites that
// start the real command (build-once.js), the run's migrated template databases
// (db-template.ts): SQLite, and MariaDB when it answers, and the snmpsimd indexes of the
// shared recordings (snmpsim-setup.js). The workers find the templates and the indexes
// through the environment they inherit. (Jest runs a hook module once per run however many
// projects name it.)
const buildOnce = require("./build-once");

module.exports = async function globalSetup() {
  await buildOnce();
  // the recordings' indexes for the suites that start snmpsimd (once per run)
  await require("./snmpsim-setup")();
  // TypeScript: Jest transforms what a global hook requires
  const { prepareTemplate } = require("./db-template.ts");
  await prepareTemplate("sqlite");
  await prepareTemplate("mariadb");
};
