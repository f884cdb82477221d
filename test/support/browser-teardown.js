// Jest globalTeardown of the browser project: closes the run's Chromium (browser-server.js).
module.exports = require("./browser-server").teardown;
