/**
 * Link aggregation membership from the standard MIBs, the same on every SNMP family: a
 * member's VLANs are its aggregate's, so the API refuses VLAN changes on it
 * (domain/port-protection.ts). Two sources, either is enough:
 *
 *   IEEE8023-LAG-MIB  dot3adAggPortAttachedAggID (the aggregator the port is attached to,
 *                     only while it is up and has joined) or, failing that,
 *                     dot3adAggPortSelectedAggID (the one it selected, also while down);
 *                     0 or the port's own ifIndex (an individual port) is no membership
 *   ifStackTable      ifStackStatus.<higher>.<lower>: a lower layer under an aggregate,
 *                     i.e. a higher layer of ifType ieee8023adLag (161) or propMultiplexor
 *                     (54), or propVirtual (53) named like a port-channel (Cisco IOS
 *                     reports its Po interfaces so)
 *
 * Static and PAgP channels that IEEE8023-LAG-MIB leaves out show in the stack table.
 * OpenL2M matches actor admin keys instead; a key shared by chance would refuse VLAN
 * changes on ports that are no members, so keys are not read here.
 */
import { ifExtra, ifTypes, lag } from "../../../mib/standard-extra";
import { ifTable, ifXTable } from "../../../mib/oids";
import { asInt, asText } from "../varbind-values";
import type { Plan, Tables } from "./part";

const PORTS = "lag.ports";
const STACK = "lag.stack";
const ROW = "lag.row";
const AGGREGATES = "lag.aggregates";

/** What the engine knows of an interface: its type and name (ifName, else ifDescr). */
export interface IfIdentity {
  type: number;
  name: string;
}

/** A port-channel as Cisco IOS names its propVirtual aggregates: Po1, Port-channel1 */
const PORT_CHANNEL_NAME = /^(po|port-channel)\s*\d/i;

/** IANA propMultiplexor, what SNMP::Info also takes for an aggregate above its members */
const PROP_MULTIPLEXOR = 54;

export function isAggregate(id: IfIdentity | undefined): boolean {
  if (!id) return false;
  if (id.type === ifTypes.ieee8023adLag || id.type === PROP_MULTIPLEXOR) return true;
  return id.type === ifTypes.propVirtual && PORT_CHANNEL_NAME.test(id.name);
}

/** What a learn's interface rows say of an interface, for the check below. */
export interface IfNames extends IfIdentity {
  descr: string;
}

/** how the families name their aggregates (Cisco Po, Comware Bridge-Aggregation, Junos ae, ProCurve Trk, EdgeSwitch "Link Aggregate") */
const AGGREGATE_NAME = /^\s*(po|port-channel|bridge-aggregation|ae|bond|trk|lag|link aggregate)\s*-?\d/i;

/** Could the device have aggregates: an interface typed or named like one (else no member can exist). */
export function mayHaveAggregates(rows: Iterable<IfNames>): boolean {
  for (const r of rows) {
    if (r.type === ifTypes.ieee8023adLag || r.type === PROP_MULTIPLEXOR) return true;
    if (AGGREGATE_NAME.test(r.name) || AGGREGATE_NAME.test(r.descr)) return true;
  }
  return false;
}

/**
 * The reads of a whole learn, in its second round and only when the first found an
 * interface that may be an aggregate: the aggregation port table's two columns and the
 * stack table, both a row per port or so (walked together, with 802.1X's port table).
 */
export function lagMoreReads(rows: Iterable<IfNames>): Plan {
  if (!mayHaveAggregates(rows)) return {};
  return {
    [PORTS]: {
      label: "dot3adAggPortTable",
      columns: [lag.dot3adAggPortAttachedAggID, lag.dot3adAggPortSelectedAggID],
      rowsLike: "ports",
    },
    [STACK]: { label: "ifStackTable", columns: [ifExtra.ifStackStatus], rowsLike: "ports" },
  };
}

/**
 * The reads for one port (a write): its two aggregation port objects (in the GET of the
 * interface's row) and the stack table, which has no index by lower layer: it is walked,
 * with the bridge port map (about as many rows, one GETBULK for both).
 */
export function lagPortReads(ifIndex: number): Plan {
  return {
    [ROW]: {
      label: `dot3adAggPortTable row ${ifIndex}`,
      scalars: [`${lag.dot3adAggPortAttachedAggID}.${ifIndex}`, `${lag.dot3adAggPortSelectedAggID}.${ifIndex}`],
    },
    [STACK]: { label: "ifStackTable", columns: [ifExtra.ifStackStatus], rowsLike: "bridgePort" },
  };
}

/** member ifIndex -> aggregate ifIndex, by the aggregation port table (0 and the port itself left out) */
function byAggregationPorts(tables: Tables, only?: number): Map<number, number> {
  const out = new Map<number, number>();
  const take = (port: number, attached: number, selected: number) => {
    const aggregate = attached !== 0 && attached !== port ? attached : selected;
    if (aggregate !== 0 && aggregate !== port) out.set(port, aggregate);
  };
  if (only !== undefined) {
    const row = tables.scalars(ROW);
    take(
      only,
      asInt(row?.get(`${lag.dot3adAggPortAttachedAggID}.${only}`)),
      asInt(row?.get(`${lag.dot3adAggPortSelectedAggID}.${only}`)),
    );
    return out;
  }
  const cols = tables.columns(PORTS);
  const attached = cols?.get(lag.dot3adAggPortAttachedAggID);
  const selected = cols?.get(lag.dot3adAggPortSelectedAggID);
  const ports = new Set([...(attached?.keys() ?? []), ...(selected?.keys() ?? [])]);
  for (const index of ports) {
    if (!/^\d+$/.test(index)) continue;
    take(Number(index), asInt(attached?.get(index)), asInt(selected?.get(index)));
  }
  return out;
}

/** lower ifIndex -> the higher layers above it (0 "nothing" left out) */
function stackAbove(tables: Tables): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const index of tables.columns(STACK)?.get(ifExtra.ifStackStatus)?.keys() ?? []) {
    const m = /^(\d+)\.(\d+)$/.exec(index);
    if (!m) continue;
    const higher = Number(m[1]);
    const lower = Number(m[2]);
    if (higher !== 0 && lower !== 0 && higher !== lower) out.set(lower, [...(out.get(lower) ?? []), higher]);
  }
  return out;
}

/**
 * member ifIndex -> aggregate ifIndex, from both sources. `identities` must know the
 * aggregates the stack table names (a whole learn knows every interface; a write reads
 * the candidates with lagCandidateReads() first). `only`: the one port of a write.
 */
export function lagMembers(
  tables: Tables,
  identities: ReadonlyMap<number, IfIdentity>,
  only?: number,
): Map<number, number> {
  const out = byAggregationPorts(tables, only);
  for (const [lower, highers] of stackAbove(tables)) {
    if (only !== undefined && lower !== only) continue;
    if (out.has(lower)) continue;
    const aggregate = highers.find((h) => isAggregate(identities.get(h)));
    if (aggregate !== undefined) out.set(lower, aggregate);
  }
  return out;
}

/** The interfaces above one port (stack table) or named by its aggregation port objects: whose type and name a write needs. */
export function lagCandidates(tables: Tables, ifIndex: number): number[] {
  const named = [...byAggregationPorts(tables, ifIndex).values()];
  return [...new Set([...named, ...(stackAbove(tables).get(ifIndex) ?? [])])];
}

/** A GET of the candidates' type and name (a write's second round); empty when there are none. */
export function lagCandidateReads(candidates: readonly number[]): Plan {
  if (candidates.length === 0) return {};
  return {
    [AGGREGATES]: {
      label: "aggregate interfaces",
      scalars: candidates.flatMap((i) => [
        `${ifTable.ifType}.${i}`,
        `${ifXTable.ifName}.${i}`,
        `${ifTable.ifDescr}.${i}`,
      ]),
    },
  };
}

/** The candidates' identities from that GET. */
export function candidateIdentities(tables: Tables, candidates: readonly number[]): Map<number, IfIdentity> {
  const values = tables.scalars(AGGREGATES);
  const out = new Map<number, IfIdentity>();
  for (const i of candidates) {
    const type = values?.get(`${ifTable.ifType}.${i}`);
    if (!type) continue;
    const name = asText(values?.get(`${ifXTable.ifName}.${i}`)) || asText(values?.get(`${ifTable.ifDescr}.${i}`));
    out.set(i, { type: asInt(type), name });
  }
  return out;
}
