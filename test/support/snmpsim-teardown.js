// Jest globalTeardown of the devices project: removes the run's recording indexes (snmpsim-setup.js).
module.exports = require("./snmpsim-setup").teardown;
