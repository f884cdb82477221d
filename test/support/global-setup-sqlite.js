// Jest globalSetup of the projects that run on SQLite only without the build (replay): the
// run's migrated SQLite template database (db-template.ts) and the snmpsimd indexes of the
// shared recordings (snmpsim-setup.js).
module.exports = async function globalSetupSqlite() {
  // TypeScript: Jest transforms what a global hook requires
  await require("./db-template.ts").prepareTemplate("sqlite");
  // the recordings' indexes for the suites that start snmpsimd (once per run)
  await require("./snmpsim-setup")();
};
