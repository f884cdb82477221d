/**
 * The public types of the lab: options of a lab switch, its faults and counters, and the
 * handle a started switch gives. lab/index.ts re-exports them.
 */
import type { SnmpTarget } from "../model/targets";
import type { VirtualSwitch } from "./model";
import type { ProfileId } from "./profiles";
import type { SnmpAgent } from "./snmp/agent";
import type { ErrorStatusName } from "./snmp/error-status";
import type { JournalEntry, OversizeMode } from "./snmp/faults";
import type { VendorOptions } from "./snmp/switch-mib/family";
import type { QBridgeMode } from "./snmp/switch-mib/writable";

export interface LabV3User {
  username: string;
  authProtocol: "SHA" | "SHA-256" | "SHA-512";
  authKey: string;
  privProtocol: "AES" | "AES-256";
  privKey: string;
}

export interface LabSwitchOptions {
  profile?: ProfileId;
  /** Ethernet ports, 8..384 */
  ports?: number;
  /** PoE-capable ports by port number (1-based); default: the profile's (all on ciscosb, cisco and procurve, none on the others) */
  poePorts?: number[] | "all" | "none";
  /** sysName; default "lab-<profile>-<ports>" */
  name?: string;
  /** seed of the deterministic generation (links, neighbours, MACs); default 1 */
  seed?: number;
  /** v2c read community, default "public" */
  community?: string;
  /** v2c read-write community, default "private" */
  writeCommunity?: string;
  /** SNMPv3 authPriv user (read-write); none by default */
  v3?: LabV3User;
  /** delay before each answer */
  latencyMs?: number;
  /** UDP port on 127.0.0.1; 0 or absent picks a free one */
  port?: number;
  /** cap of values in one GetBulk answer besides the message size (real agents cap at 64..100) */
  maxBulkValues?: number;
  /**
   * Largest answer to a read, in bytes of the whole message (484..65507). A GetBulk is
   * not cut to fit: a larger answer becomes what `oversize` says. Default: no limit (a
   * GetBulk is cut at the UDP maximum, as RFC 3416 asks).
   */
  maxResponseBytes?: number;
  /** "tooBig" (default): error-status tooBig with no varbinds (RFC 3416); "silent": no answer, as snmpsimd */
  oversize?: OversizeMode;
  /**
   * Chassis numbering: Ethernet ports sit in slots of this many ports (1..999), and
   * slot s port m is bridge port s*1000+m, so PortLists are about slots x 125 octets
   * long (4 slots: 512). Default: bridge ports as the profile numbers them. Only on
   * generic and ciscosb; the vendor families keep their own numbering and refuse it
   * (RangeError naming the profile).
   */
  portsPerSlot?: number;
  /**
   * VLANs besides the generated ones (ids from 1000 up, skipping ids the family
   * reserves, access ports spread over them); all VLANs together at most the profile's
   * maxVlans (256 on generic and ciscosb)
   */
  extraVlans?: number;
  /** the MAC table holds at least this many entries: more hosts behind the access ports (default: as generated) */
  macEntries?: number;
  /** at least this many LLDP neighbours: desk switches on ports without one, one per port at most (default: as generated) */
  lldpNeighbours?: number;
  /**
   * How the agent treats Q-BRIDGE writes (default "auto"). "auto", like many switches:
   * setting a PVID or adding a port to an untagged PortList makes that VLAN the port's
   * access VLAN (it leaves its old one), and a PDU whose result breaks the VLAN rules is
   * refused. "strict", like other agents: every object changes only itself and only
   * "untagged within egress" is enforced, so model.consistencyProblems() shows whether
   * the manager kept Q-BRIDGE consistent.
   */
  qbridge?: QBridgeMode;
  /** Ethernet ports (1-based) that carry an IPv4 address (ipAdEntIfIndex points at them: routed ports) */
  routedPorts?: number[];
  /**
   * Ethernet ports (1-based) that are members of one link aggregation: the profile's LAG
   * interface, or Port-channel1 (ifType 161) after the highest ifIndex when it has none.
   * Served in IEEE8023-LAG-MIB and ifStackTable, on the IOS face as `channel-group`
   */
  lagPorts?: number[];
  /** Ethernet ports (1-based) in 802.1X mode (IEEE8021-PAE-MIB port control auto; IOS `authentication port-control auto`) */
  dot1xPorts?: number[];
  /** family-specific options (e.g. cisco: { vtpMode: "client", writeMem: false }) */
  vendor?: VendorOptions;
}

export interface LabFaults {
  /** delay before each answer, milliseconds */
  latencyMs: number;
  /** true: answer nothing (an unreachable device) */
  drop: boolean;
  /** answer n more requests, then drop everything ("a timeout in the middle of a walk") */
  dropAfter(n: number): void;
  /** answer every SET with this error-status (error-index 1) and apply nothing */
  refuseSets: false | ErrorStatusName;
  /**
   * Refuse only the SETs that write an object under oidPrefix (whole sub-identifiers:
   * "...4.1" does not cover "...4.10"), with this error-status at the first such varbind,
   * applying nothing of the PDU. Rules add up until reset().
   */
  refuseSetsMatching(oidPrefix: string, status: ErrorStatusName): void;
  /**
   * Refuse the n-th SET from now (1: the next one) with this error-status (error-index 1),
   * applying nothing of it. Every SET with write access counts, refused or not; calls add up
   * until reset().
   */
  refuseNthSet(n: number, status: ErrorStatusName): void;
  /**
   * The device goes silent at the next SET, which it still applies: "answered" answers that
   * SET first and then nothing ("its read-back gets no answer"), "unanswered" answers not
   * even the SET ("the answer was lost"). Ends with reset().
   */
  goneAfterSet: false | "answered" | "unanswered";
  /** answer SETs with noError but apply nothing ("a set that reads back different") */
  lieOnSet: boolean;
  /**
   * Answer noError but apply nothing of a SET that writes an object under oidPrefix (whole
   * sub-identifiers, as refuseSetsMatching): a device that does not keep one value. Rules
   * add up until reset().
   */
  lieOnSetsMatching(oidPrefix: string): void;
  /**
   * Apply each SET at once but send its answer this many milliseconds later: the device is
   * being changed while the manager waits (keep it below the manager's timeout). 0: off.
   */
  setAnswerDelayMs: number;
  /** largest answer to a read in bytes, or null (see LabSwitchOptions.maxResponseBytes) */
  maxResponseBytes: number | null;
  /** what an answer over maxResponseBytes becomes: "tooBig" or "silent" (no answer) */
  oversize: OversizeMode;
  /** reboot: engine boots + 1, uptime and engine time restart, running config reloaded from startup */
  restart(): void;
  /** back to no faults (latency and the response limit back to the options' values) */
  reset(): void;
}

export interface LabCounters {
  /** SNMP messages received (also the dropped ones) */
  requests: number;
  /** variable bindings sent in answers */
  values: number;
  /** answers sent */
  responses: number;
  /** answers over the response limit (sent as tooBig, or not at all) */
  oversize: number;
  /** requests answered or refused, per PDU type (SNMPv3 discovery and reports not included) */
  byType: { get: number; getNext: number; getBulk: number; set: number; other: number };
  /** requests received and not yet answered (latency holds them) */
  inFlight: number;
  /** the most requests in flight at one moment since the last reset */
  maxInFlight: number;
  /** the last requests (up to 20,000) in arrival order: kind and sending socket */
  journal: readonly JournalEntry[];
  reset(): void;
}

export interface LabSwitch {
  model: VirtualSwitch;
  host: "127.0.0.1";
  port: number;
  options: Required<
    Omit<LabSwitchOptions, "v3" | "port" | "maxBulkValues" | "maxResponseBytes" | "portsPerSlot" | "vendor">
  > & {
    v3?: LabV3User;
    maxBulkValues?: number;
    maxResponseBytes?: number;
    portsPerSlot?: number;
    vendor: VendorOptions;
  };
  faults: LabFaults;
  counters: LabCounters;
  /** v2c by default; write: true gives the write community; v3 needs options.v3 */
  snmpTarget(opts?: { version?: "2c" | "3"; write?: boolean }): SnmpTarget;
  /** the agent itself; handleMessage(request) is its whole processing of one message (the bench times it) */
  agent: SnmpAgent;
  /**
   * Writes what the agent serves now as a .snmprec recording (`OID|type|value`, octet
   * strings that are not plain letters and digits in hex as `4x`), the format snmpsimd
   * and startRecordingAgent serve; returns the number of values written.
   */
  writeRecording(file: string): number;
  stop(): Promise<void>;
}
