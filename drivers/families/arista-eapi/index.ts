/**
 * Arista EOS over eAPI (connector 3): JSON-RPC `runCmds` over HTTPS, reads as one request
 * of several show commands, changes as one request of configuration commands with their
 * read-back, `copy running-config startup-config` to save.
 */
import { httpsOf, type DriverEntry } from "../../entry";
import { AristaEapiDriver, aristaEapiCapabilities } from "./driver";

export const aristaEapi: DriverEntry = {
  name: "arista_eapi",
  vendor: "Arista",
  description:
    "Arista EOS over eAPI (JSON-RPC over HTTPS): show commands in one request, configuration commands with their read-back in one request, copy running-config startup-config",
  connector: 3,
  can: aristaEapiCapabilities,
  open: (connection, options) =>
    new AristaEapiDriver(httpsOf(connection, 3), { name: options.name, onCertificate: options.onCertificate }),
  provenAgainst: { lab: ["arista"], notes: ["the lab's eAPI face is also driven by Arista's own client, pyeapi"] },
};
