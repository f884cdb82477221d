// Jest globalTeardown of the browser project: closes the run's Chromium (browser-server.js)
// and removes the template databases.
module.exports = async function browserTeardown(globalConfig, projectConfig) {
  await require("./browser-server").teardown(globalConfig, projectConfig);
  await require("./db-template.ts").dropTemplates();
};
