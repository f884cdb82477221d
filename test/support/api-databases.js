// Which API suites run on MariaDB as well as on SQLite (jest.config.js, and the check of
// the rule below: npm run test:db-coverage).
//
// Every API suite runs on SQLite. A suite also runs on MariaDB when what it checks is the
// store's own behaviour (users, tokens, sessions, audit rows, throttle counts, write
// leases, groups and inventory, migrations, directory users, instance rows, text the
// database keeps, a process started on a MariaDB URL), or when it reaches code of db/ on
// MariaDB that no other suite on both reaches. The suites listed here run on SQLite only:
// they check the HTTP edge, device traffic, the lab or a directory, and the store calls
// they make are reached on MariaDB by the suites that stay on both. `npm run
// test:db-coverage` runs every API suite on MariaDB with coverage of db/ and names, for
// each suite listed here, the lines of db/ only it would reach there; a suite with such
// lines goes back on both (or another suite on both gets a test that reaches them).
// SWITCHDESK_TEST_ALL_API_ON_MARIADB=1 runs them all on MariaDB.
const sqliteOnly = [
  "api-drivers-service", // AOS-CX REST, NETCONF and eAPI through the service: device traffic
  "conventions", // paths, slashes, methods, error shape, cookie flags
  "database-unavailable", // SQLite's write lock; the error classification is pure
  "device-load", // the per-device bound, shared learns and device_busy: device traffic only
  "device-permissions", // the rights rules over lab switches; their reads are the menu's and the admin API's
  "devices", // views and writes against lab switches; audit rows: hardening-audit, port-batch
  "directory-failures", // a directory down, slow, untrusted or attacked; the throttle: login-throttle
  "directory-login", // LDAP, StartTLS, LDAPS, direct bind; the account made: directory-identity
  "find", // MAC, ARP and LLDP searches of lab switches
  "fuzz", // skips itself on MariaDB unless SWITCHDESK_FUZZ_ALL_DBS=1
  "hardening-edge", // 413/415/400 at the edge, Host, security headers, links
  "linux-host", // a Linux host's links over SSH in a network namespace
  "login-redirect", // where a web login goes
  "open-redirect", // no answer sends a browser to another site
  "openl2m-compat", // OpenL2M's example calls and their answers' shapes against a lab switch
  "port-protection", // OpenL2M's port protections: rules over what a lab switch reports
  "recordings-large", // a large recording through snmpsimd
  "service-wiring", // two services in one process share no limits: in memory
  "ssh-devices", // a switch over SSH; its host key's store calls: admin-switches, api-connectors
  "trunk-tags", // tagged-VLAN writes and their 400s against a lab switch
  "trusted-proxies", // the client's address behind proxies
  "ui-shell", // the web UI's pages as the server gives them
  "vlan-rights", // VLAN add, rename and delete refused or done on a lab switch
];

const allOnMariadb = process.env.SWITCHDESK_TEST_ALL_API_ON_MARIADB === "1";

module.exports = { sqliteOnly, allOnMariadb };
