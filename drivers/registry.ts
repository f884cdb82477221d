/**
 * Which driver talks to a device: the one the device record names, or with "auto" the
 * one its sysObjectID's enterprise number points to (one GET, whose session the chosen
 * driver then keeps using). Unknown enterprises get the generic SNMP driver.
 */
import { enterprises, system } from "../mib/oids";
import { CiscoSbSnmpDriver } from "./snmp/ciscosb";
import { GenericSnmpDriver } from "./snmp/generic";
import { isUnder } from "./snmp/oid";
import { SnmpSession } from "./snmp/session";
import { asText } from "./snmp/values";
import type { Driver } from "./contract";
import { NotSupported } from "../model/failures";
import type { SnmpTarget } from "../model/targets";

export interface DriverSpec {
  /** "auto" | "generic" | "ciscosb" */
  driver: string;
  snmp: SnmpTarget;
  /** the device's inventory name, for error messages */
  name?: string;
}

export interface DriverDescription {
  name: string;
  vendor: string;
  description: string;
}

interface DriverEntry extends DriverDescription {
  open(target: SnmpTarget, session: SnmpSession, name?: string): Driver;
}

const drivers: DriverEntry[] = [
  {
    name: "generic",
    vendor: "Generic SNMP",
    description: "standard MIBs: IF-MIB, BRIDGE-MIB, Q-BRIDGE-MIB, POWER-ETHERNET-MIB, LLDP-MIB; no save",
    open: (target, session, name) => new GenericSnmpDriver(target, { session, name }),
  },
  {
    name: "ciscosb",
    vendor: "Cisco Small Business",
    description: "Cisco SG/CBS switches: generic SNMP plus saving through CISCOSB-COPY-MIB",
    open: (target, session, name) => new CiscoSbSnmpDriver(target, { session, name }),
  },
];

export const AUTO_DRIVER = "auto";

/** The drivers a device record may name (besides "auto"), for the admin API. */
export function listDrivers(): DriverDescription[] {
  return drivers.map(({ name, vendor, description }) => ({ name, vendor, description }));
}

/** The driver name for a sysObjectID, by enterprise number. */
export function driverForSysObjectId(sysObjectID: string): string {
  const oid = sysObjectID.replace(/^\./, "");
  if (oid === enterprises.ciscoSbPrefix || isUnder(oid, enterprises.ciscoSbPrefix)) return "ciscosb";
  return "generic";
}

export async function openDriver(spec: DriverSpec): Promise<Driver> {
  const wanted = spec.driver || AUTO_DRIVER;
  const entry = wanted === AUTO_DRIVER ? null : drivers.find((d) => d.name === wanted);
  if (wanted !== AUTO_DRIVER && !entry) throw new NotSupported(`Unknown driver '${wanted}'`);

  const session = new SnmpSession(spec.snmp, { name: spec.name });
  if (entry) return entry.open(spec.snmp, session, spec.name);
  try {
    const probe = `${system.sysObjectID}.0`;
    const answer = await session.get([probe], "sysObjectID.0");
    const chosen = driverForSysObjectId(asText(answer.get(probe)));
    return drivers.find((d) => d.name === chosen)!.open(spec.snmp, session, spec.name);
  } catch (error) {
    session.close();
    throw error;
  }
}
