/**
 * iproute2's JSON output (`ip -j`): links with their flags, state, alias and kind,
 * addresses per link, and the neighbour (ARP/ND) cache. Shapes are checked before use:
 * a host that prints something else is reported, not half-read.
 */

export interface LinkRow {
  ifindex: number;
  ifname: string;
  flags: string[];
  operstate: string;
  link_type: string;
  address: string;
  mtu: number;
  ifalias: string;
  /** linkinfo.info_kind: "veth", "bond", "bridge", "vlan", ... ("" for plain hardware) */
  kind: string;
  /** linkinfo.info_slave_kind of an enslaved link ("vrf", "bond", "bridge") */
  slaveKind: string;
  master: string;
}

export interface AddressRow {
  ifname: string;
  family: "inet" | "inet6";
  local: string;
  scope: string;
}

export interface NeighbourRow {
  dst: string;
  dev: string;
  lladdr: string;
  family: "inet" | "inet6";
}

export class UnexpectedOutput extends Error {}

type Obj = Record<string, unknown>;

function jsonArray(text: string, what: string): Obj[] {
  let data: unknown;
  try {
    data = JSON.parse(text.trim() === "" ? "[]" : text);
  } catch {
    throw new UnexpectedOutput(`${what} is not JSON`);
  }
  if (!Array.isArray(data) || !data.every((x) => x !== null && typeof x === "object"))
    throw new UnexpectedOutput(`${what} is not a JSON list`);
  return data as Obj[];
}

const str = (v: unknown) => (typeof v === "string" ? v : "");

export function parseLinks(text: string): LinkRow[] {
  return jsonArray(text, "ip -j link").map((o) => {
    if (typeof o.ifname !== "string" || typeof o.ifindex !== "number")
      throw new UnexpectedOutput("ip -j link lists a link without name or index");
    const info = (o.linkinfo ?? {}) as Obj;
    return {
      ifindex: o.ifindex,
      ifname: o.ifname,
      flags: Array.isArray(o.flags) ? o.flags.filter((f): f is string => typeof f === "string") : [],
      operstate: str(o.operstate),
      link_type: str(o.link_type),
      address: str(o.address),
      mtu: typeof o.mtu === "number" ? o.mtu : 0,
      ifalias: str(o.ifalias),
      kind: str(info.info_kind),
      slaveKind: str(info.info_slave_kind),
      master: str(o.master),
    };
  });
}

export function parseAddresses(text: string): AddressRow[] {
  const out: AddressRow[] = [];
  for (const link of jsonArray(text, "ip -j addr")) {
    const infos = Array.isArray(link.addr_info) ? (link.addr_info as Obj[]) : [];
    for (const a of infos) {
      if ((a.family === "inet" || a.family === "inet6") && typeof a.local === "string") {
        out.push({ ifname: str(link.ifname), family: a.family, local: a.local, scope: str(a.scope) });
      }
    }
  }
  return out;
}

export function parseNeighbours(text: string): NeighbourRow[] {
  return jsonArray(text, "ip -j neigh")
    .filter((n) => typeof n.dst === "string" && typeof n.dev === "string" && typeof n.lladdr === "string")
    .map((n) => ({
      dst: n.dst as string,
      dev: n.dev as string,
      lladdr: (n.lladdr as string).toLowerCase(),
      family: String(n.dst).includes(":") ? "inet6" : "inet",
    }));
}
