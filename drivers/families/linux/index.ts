/**
 * A Linux host over SSH: its links are the ports (`ip -j link`), admin state and alias
 * can change; VLANs, PoE and saving are not a host's business.
 */
import { sshOf, type DriverEntry } from "../../entry";
import { LinuxHostDriver } from "./driver";

export const linuxHost: DriverEntry = {
  name: "linux_host",
  vendor: "Linux",
  description: "a Linux host over SSH: ip -j link for reads, ip link set for state and alias",
  connector: 7,
  open: (connection, options) => new LinuxHostDriver(sshOf(connection), { name: options.name, onHostKey: options.onHostKey }),
  proof: { changes: "state, description", provenAgainst: "real OpenSSH (Debian sshd) in a network namespace with veth ports" },
};
