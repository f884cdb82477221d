/**
 * HPE Aruba AOS-CX over its REST API (connector 1): the API version chosen from what the
 * switch offers, one login per API call and a logout always, reads in a fixed handful of
 * requests, writes as PATCHes read back, the save a copy of the running configuration to
 * the startup configuration (driver.ts, rest-session.ts).
 */
import { httpsOf, type DriverEntry } from "../../entry";
import { ArubaAoscxDriver, arubaAoscxCapabilities } from "./driver";

export const arubaAoscx: DriverEntry = {
  name: "aruba_aoscx",
  vendor: "HPE Aruba",
  description: "Aruba AOS-CX over its REST API (HTTPS): session login, attribute-selected reads, PATCH writes, save",
  connector: 1,
  can: arubaAoscxCapabilities,
  open: (connection, options) =>
    new ArubaAoscxDriver(httpsOf(connection, 1), { name: options.name, onCertificate: options.onCertificate }),
  provenAgainst: { lab: ["arubacx"] },
};
