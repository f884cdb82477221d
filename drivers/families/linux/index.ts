/**
 * A Linux host over SSH: its links are the ports (`ip -j link`), admin state and alias
 * can change; VLANs, PoE and saving are not a host's business.
 */
import { sshOf, type DriverEntry } from "../../entry";
import { LinuxHostDriver, linuxHostCapabilities } from "./driver";

export const linuxHost: DriverEntry = {
  name: "linux_host",
  vendor: "Linux",
  description: "a Linux host over SSH: ip -j link for reads, ip link set for state and alias",
  connector: 7,
  can: linuxHostCapabilities,
  open: (connection, options) =>
    new LinuxHostDriver(sshOf(connection), { name: options.name, onHostKey: options.onHostKey }),
  provenAgainst: { real: ["OpenSSH in a network namespace with veth ports"] },
};
