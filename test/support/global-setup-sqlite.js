// Jest globalSetup of the projects that run on SQLite only without the build (replay): the
// run's migrated SQLite template database (db-template.ts).
module.exports = async function globalSetupSqlite() {
  // TypeScript: Jest transforms what a global hook requires
  await require("./db-template.ts").prepareTemplate("sqlite");
};
