// Jest globalTeardown of the projects with template databases (global-setup*.js): removes
// them and the run's recording indexes (snmpsim-setup.js).
module.exports = async function globalTeardown() {
  await require("./db-template.ts").dropTemplates();
  await require("./snmpsim-setup").teardown();
};
