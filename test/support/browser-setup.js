// Jest globalSetup of the browser project: starts the run's one Chromium (browser-server.js).
module.exports = require("./browser-server").setup;
