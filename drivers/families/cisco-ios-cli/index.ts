/**
 * Cisco IOS over its command line (SSH): reads from show commands, writes in
 * configuration mode, every write read back with a show command, `write memory` to save.
 */
import { sshOf, type DriverEntry } from "../../entry";
import { CiscoIosCliDriver, ciscoIosCapabilities } from "./driver";

export const ciscoIosCli: DriverEntry = {
  name: "cisco_ios_cli",
  vendor: "Cisco",
  description: "Cisco IOS over SSH: show commands, configuration mode, write memory",
  connector: 7,
  can: ciscoIosCapabilities,
  open: (connection, options) =>
    new CiscoIosCliDriver(sshOf(connection), { name: options.name, onHostKey: options.onHostKey }),
  provenAgainst: { lab: ["generic"], notes: ["parsers tested on captured output of real IOS switches"] },
};
