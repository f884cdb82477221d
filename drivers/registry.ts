/**
 * Which driver talks to a device. A device record names a driver, or "auto": then the
 * family is chosen by the device's sysObjectID (and sysDescr where a family needs it),
 * the most specific match winning (Cisco small business `1.3.6.1.4.1.9.6.1` over Cisco
 * `1.3.6.1.4.1.9`; any family over the generic driver). The choice is returned so that
 * the application stores it with the sysObjectID it was made for, and later calls open
 * that family at once, without a probe; the family checks on its first read that the
 * device still answers with that sysObjectID (drivers/snmp/driver.ts).
 */
import { system } from "../mib/oids";
import type { Connection } from "../model/targets";
import { NotSupported } from "../model/failures";
import type { Driver } from "./contract";
import type { DriverEntry, ProvenAgainst } from "./entry";
import { CAPABILITY_FLAG_NAMES, type CapabilityFlag } from "../model/capabilities";
import { FAMILIES } from "./families";
import { isUnder } from "./snmp/oid";
import { SnmpSession } from "./snmp/session";
import type { DeviceGates } from "./device-gate";
import { asText } from "./snmp/varbind-values";

export const AUTO_DRIVER = "auto";

export interface DriverDescription {
  name: string;
  vendor: string;
  description: string;
  connector: Connection["connector"];
  /** the sysObjectID prefixes "auto" picks it for ("" = any); null: only when a device names it */
  matches: readonly string[] | null;
  /** where the prefixes are not enough: the sysDescr patterns one of which must also match */
  sysDescr: readonly string[] | null;
  /** what it can change */
  changes: CapabilityFlag[];
  /** it has a details view (MAC addresses, neighbours) */
  clientData: boolean;
  provenAgainst: ProvenAgainst;
}

/** What "auto" chose, to be stored on the device record. */
export interface Detection {
  driver: string;
  sysObjectId: string;
}

export interface DriverSpec {
  /** "auto" or a driver name */
  driver: string;
  connection: Connection;
  /** the device's inventory name, for messages */
  name?: string;
  /** what "auto" chose before (null: probe now) */
  detected?: Detection | null;
  /** SSH and NETCONF: the host key fingerprint the device presented */
  onHostKey?: (fingerprint: string) => void;
  /** HTTPS: the certificate fingerprint the device presented */
  onCertificate?: (fingerprint: string) => void;
  /**
   * The service's per-device gates (drivers/device-gate.ts): the opened driver's requests
   * go through them. Without them (a test, a tool) the driver bounds only itself.
   */
  gates?: DeviceGates;
}

export interface OpenedDriver {
  driver: Driver;
  /** set when this opening probed the device (store it) */
  detected?: Detection;
}

export function listDrivers(): DriverDescription[] {
  return FAMILIES.map((f) => ({
    name: f.name,
    vendor: f.vendor,
    description: f.description,
    connector: f.connector,
    matches: f.match ? f.match.sysObjectIds : null,
    sysDescr: f.match?.sysDescr ? f.match.sysDescr.map((re) => re.source) : null,
    changes: CAPABILITY_FLAG_NAMES.filter((flag) => f.can[flag]),
    clientData: f.can.client_data,
    provenAgainst: f.provenAgainst,
  }));
}

/** The connectors that have at least one driver. */
export function connectorsWithDrivers(): number[] {
  return [...new Set(FAMILIES.map((f) => f.connector))].sort((a, b) => a - b);
}

/** The driver names a device with this connector may name ("auto" only where a probe can choose). */
export function driverNamesFor(connector: number): string[] {
  const names = FAMILIES.filter((f) => f.connector === connector).map((f) => f.name);
  const probing = FAMILIES.some((f) => f.connector === connector && f.match);
  return probing ? [AUTO_DRIVER, ...names] : names;
}

function entryNamed(name: string): DriverEntry | undefined {
  return FAMILIES.find((f) => f.name === name);
}

/**
 * The family for a sysObjectID (and sysDescr): every family whose prefix the OID starts
 * with (and whose sysDescr patterns, if any, match) is a candidate; the longest prefix
 * wins, a sysDescr match breaks a tie. The generic family matches everything.
 */
export function chooseFamily(sysObjectId: string, sysDescr = ""): DriverEntry {
  const oid = sysObjectId.replace(/^\./, "");
  let best: { entry: DriverEntry; score: number } | null = null;
  for (const entry of FAMILIES) {
    if (!entry.match) continue;
    for (const prefix of entry.match.sysObjectIds) {
      const under = prefix === "" || oid === prefix || isUnder(oid, prefix);
      if (!under) continue;
      if (entry.match.sysDescr && !entry.match.sysDescr.some((re) => re.test(sysDescr))) continue;
      const arcs = prefix === "" ? 0 : prefix.split(".").length;
      const score = arcs * 2 + (entry.match.sysDescr ? 1 : 0);
      if (!best || score > best.score) best = { entry, score };
    }
  }
  if (!best) throw new Error("no driver family matches; the generic family should match every device");
  return best.entry;
}

/** Asks an SNMP device who it is; the session stays open for the chosen driver. */
async function probe(
  connection: Connection & { connector: 0 },
  name?: string,
  gates?: DeviceGates,
): Promise<{ entry: DriverEntry; sysObjectId: string; session: SnmpSession }> {
  const session = new SnmpSession(connection.snmp, { name, gates });
  try {
    const oids = [`${system.sysObjectID}.0`, `${system.sysDescr}.0`];
    const answer = await session.get(oids, "sysObjectID.0");
    const sysObjectId = asText(answer.get(oids[0])).replace(/^\./, "");
    const entry = chooseFamily(sysObjectId, asText(answer.get(oids[1])));
    return { entry, sysObjectId, session };
  } catch (error) {
    session.close();
    throw error;
  }
}

export async function openDriver(spec: DriverSpec): Promise<OpenedDriver> {
  const { connection, name, gates } = spec;
  const wanted = spec.driver || AUTO_DRIVER;
  if (wanted !== AUTO_DRIVER) {
    const entry = entryNamed(wanted);
    if (!entry) throw new NotSupported(`Unknown driver '${wanted}'`);
    if (entry.connector !== connection.connector) {
      throw new NotSupported(
        `Driver '${wanted}' speaks over connector ${entry.connector}, the device is configured for connector ${connection.connector}`,
      );
    }
    return {
      driver: entry.open(connection, { name, onHostKey: spec.onHostKey, onCertificate: spec.onCertificate, gates }),
    };
  }
  if (connection.connector !== 0)
    throw new NotSupported(
      `Driver 'auto' chooses by SNMP; a device on connector ${connection.connector} must name its driver`,
    );
  const stored = spec.detected ? entryNamed(spec.detected.driver) : undefined;
  if (stored && spec.detected) {
    return { driver: stored.open(connection, { name, expectSysObjectId: spec.detected.sysObjectId, gates }) };
  }
  const found = await probe(connection, name, gates);
  return {
    driver: found.entry.open(connection, { name, session: found.session }),
    detected: { driver: found.entry.name, sysObjectId: found.sysObjectId },
  };
}
