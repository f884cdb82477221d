/**
 * Juniper Junos over NETCONF (SSH subsystem `netconf`, connector 2): Junos RPCs for
 * reads, lock / load / commit confirmed / confirm / unlock for changes; a commit is the
 * save.
 */
import { netconfOf, type DriverEntry } from "../../entry";
import { JunosNetconfDriver, junosCapabilities } from "./driver";

export const junosNetconf: DriverEntry = {
  name: "junos_netconf",
  vendor: "Juniper",
  description: "Juniper Junos over NETCONF: Junos RPCs, commit confirmed, no separate save",
  connector: 2,
  can: junosCapabilities,
  open: (connection, options) =>
    new JunosNetconfDriver(netconfOf(connection), { name: options.name, onHostKey: options.onHostKey }),
  provenAgainst: {
    lab: ["juniper"],
    notes: ["the lab's NETCONF face is also driven by PyEZ and ncclient (Juniper's own clients)"],
  },
};
