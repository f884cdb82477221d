// Jest globalSetup of the browser project: starts one Chromium per Jest worker (browser-server.js)
// and makes the run's migrated SQLite template database (db-template.ts).
module.exports = async function browserSetup(globalConfig, projectConfig) {
  await require("./browser-server").setup(globalConfig, projectConfig);
  await require("./db-template.ts").prepareTemplate("sqlite");
};
