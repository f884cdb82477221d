// Jest globalTeardown of the projects with template databases (global-setup*.js): removes them.
module.exports = async function globalTeardown() {
  await require("./db-template.ts").dropTemplates();
};
