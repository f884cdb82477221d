/**
 * What a driver family declares to the registry: its name, the connector it speaks over,
 * what it matches when a device's driver is "auto" (sysObjectID prefixes, and sysDescr
 * patterns where prefixes are not enough), and how to open it on a connection.
 */
import type { Capabilities } from "../model/capabilities";
import type { Connection, HttpsTarget, SnmpTarget, SshTarget } from "../model/targets";
import type { Driver } from "./contract";
import type { SnmpSession } from "./snmp/session";
import type { DeviceGates } from "./device-gate";

export interface OpenOptions {
  /** the device's inventory name, for messages */
  name?: string;
  /** SNMP: the registry's probe session, to reuse (the driver closes it) */
  session?: SnmpSession;
  /** SNMP: the sysObjectID the driver was chosen for; another one makes it stale */
  expectSysObjectId?: string;
  /** SSH and NETCONF: called with the host key fingerprint the device presented (to pin it) */
  onHostKey?: (fingerprint: string) => void;
  /** HTTPS: called with the certificate fingerprint the device presented (to pin it) */
  onCertificate?: (fingerprint: string) => void;
  /** SNMP: the service's per-device gates its requests go through (drivers/device-gate.ts) */
  gates?: DeviceGates;
}

export interface DriverMatch {
  /** sysObjectID prefixes (no leading dot); a longer prefix is a more specific match */
  sysObjectIds: readonly string[];
  /** where a prefix is not enough: the sysDescr must also match one of these */
  sysDescr?: readonly RegExp[];
}

export interface DriverEntry {
  name: string;
  vendor: string;
  description: string;
  /** 0: SNMP, 1: AOS-CX REST, 2: Junos NETCONF, 3: Arista eAPI, 7: SSH command line */
  connector: Connection["connector"];
  /** what its drivers can change (the same as an opened driver's `can`) */
  can: Capabilities;
  /** what "auto" picks it for (SNMP families); absent: only when named */
  match?: DriverMatch;
  open(connection: Connection, options: OpenOptions): Driver;
  /** what it was proven against (the README's driver table; the conformance suite holds it to its subjects) */
  provenAgainst: ProvenAgainst;
}

export interface ProvenAgainst {
  /** lab profiles whose face (SNMP or SSH, as the connector says) the conformance suite runs it on */
  lab?: readonly string[];
  /** recordings of real devices (fixture names) that snmpsimd serves to the suite's read tests */
  recordings?: readonly string[];
  /** real agents the suite runs it on */
  real?: readonly string[];
  /** proof outside the conformance suite */
  notes?: readonly string[];
}

export function snmpOf(connection: Connection): SnmpTarget {
  if (connection.connector !== 0) throw new TypeError("an SNMP driver needs an SNMP connection");
  return connection.snmp;
}

export function sshOf(connection: Connection): SshTarget {
  if (connection.connector !== 7) throw new TypeError("an SSH driver needs an SSH connection");
  return connection.ssh;
}

export function netconfOf(connection: Connection): SshTarget {
  if (connection.connector !== 2) throw new TypeError("a NETCONF driver needs a NETCONF connection");
  return connection.ssh;
}

export function httpsOf(connection: Connection, connector: 1 | 3): HttpsTarget {
  if (connection.connector !== connector) throw new TypeError(`this driver needs a connector ${connector} connection`);
  return connection.https;
}
