/**
 * Cisco IOS over its command line (SSH): reads from show commands, writes in
 * configuration mode, every write read back with a show command, `write memory` to save.
 */
import { sshOf, type DriverEntry } from "../../entry";
import { CiscoIosCliDriver } from "./driver";

export const ciscoIosCli: DriverEntry = {
  name: "cisco_ios_cli",
  vendor: "Cisco",
  description: "Cisco IOS over SSH: show commands, configuration mode, write memory",
  connector: 7,
  open: (connection, options) => new CiscoIosCliDriver(sshOf(connection), { name: options.name, onHostKey: options.onHostKey }),
  proof: {
    changes: "state, VLAN (access or native), PoE, description, VLAN add/rename/delete, save",
    provenAgainst: "lab SSH face (IOS dialect); parsers on real IOS output of many versions",
  },
};
