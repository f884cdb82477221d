/**
 * The facts behind the port protections (domain/port-protection.ts) for the SNMP engine:
 * link aggregation membership (lag.ts) and 802.1X port control (dot1x.ts), read beside
 * everything else of a learn or of a write's one interface, and written onto the
 * Ethernet ports' InterfaceInfo (`lag_member_of`: the aggregate's name; `dot1x_auth`).
 */
import type { InterfaceInfo } from "../../../model/device";
import { dot1xLearnReads, dot1xMoreReads, dot1xPortReads, dot1xPorts } from "./dot1x";
import type { IfRow } from "./interfaces";
import {
  candidateIdentities,
  lagCandidateReads,
  lagCandidates,
  lagMembers,
  lagMoreReads,
  lagPortReads,
  type IfIdentity,
} from "./lag";
import type { Plan, Tables } from "./part";

/**
 * A learn's first round: only 802.1X's system switch, in the GET of the system group. A
 * switch with neither aggregates nor 802.1X (most access switches) costs no request more.
 */
export function protectionLearnReads(): Plan {
  return dot1xLearnReads();
}

/**
 * A learn's second round (beside the VLAN part's): the LAG tables when an interface may be
 * an aggregate, 802.1X's port table when the system switch is on; walked together.
 */
export function protectionMoreReads(first: Tables, rows: readonly IfRow[]): Plan {
  return {
    ...lagMoreReads(rows.map((r) => ({ type: r.type, name: r.name || r.descr, descr: r.descr }))),
    ...dot1xMoreReads(first),
  };
}

export function protectionPortReads(ifIndex: number): Plan {
  return { ...lagPortReads(ifIndex), ...dot1xPortReads(ifIndex) };
}

function mark(
  iface: InterfaceInfo,
  aggregate: number | undefined,
  identities: ReadonlyMap<number, IfIdentity>,
  dot1x: boolean,
): void {
  // only Ethernet ports are managed at all: the facts matter there alone
  if (iface.kind !== "ethernet") return;
  if (aggregate !== undefined) iface.lag_member_of = identities.get(aggregate)?.name || `ifIndex ${aggregate}`;
  if (dot1x) iface.dot1x_auth = true;
}

/** A whole learn: every interface's facts from the tables (`rows` are all the interfaces, in `interfaces`' order). */
export function markProtectedPorts(tables: Tables, rows: readonly IfRow[], interfaces: InterfaceInfo[]): void {
  const identities = new Map(rows.map((r) => [r.ifIndex, { type: r.type, name: r.name || r.descr }]));
  const members = lagMembers(tables, identities);
  const dot1x = dot1xPorts(tables);
  for (const iface of interfaces) {
    const ifIndex = Number(iface.id);
    mark(iface, members.get(ifIndex), identities, dot1x.has(ifIndex));
  }
}

/**
 * One interface of a write: what it needs in the second round (the type and name of the
 * interfaces above it), then its facts.
 */
export function protectionsOfPort(
  first: Tables,
  ifIndex: number,
): { moreReads: Plan; mark(tables: Tables, iface: InterfaceInfo): void } {
  const candidates = lagCandidates(first, ifIndex);
  return {
    moreReads: lagCandidateReads(candidates),
    mark(tables, iface) {
      const identities = candidateIdentities(tables, candidates);
      mark(
        iface,
        lagMembers(tables, identities, ifIndex).get(ifIndex),
        identities,
        dot1xPorts(tables, ifIndex).has(ifIndex),
      );
    },
  };
}
