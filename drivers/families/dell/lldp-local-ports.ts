/**
 * LLDP neighbours whose local port numbers are not bridge ports. LLDP-MIB numbers local
 * ports with lldpLocPortNum, which most agents make the bridge port; Dell OS10 uses its
 * own numbers (512 + 4n for ethernet1/1/n, 4 for mgmt1/1/1) and Junos the ifIndex. The
 * agent names each local port in lldpLocPortId (or lldpLocPortDesc): a name that is
 * exactly one interface's name settles it; else the number is an ifIndex; else a bridge port.
 */
import { lldp } from "../../../mib/oids";
import { lldpLocPort } from "../../../mib/dell";
import { interfaceOfPort, type BridgePorts } from "../../snmp/parts/bridge-ports";
import { lldpNeighbours } from "../../snmp/parts/client-standard";
import type { Plan, PortMap, Tables } from "../../snmp/parts/part";
import { asText } from "../../snmp/varbind-values";

const LOCAL_PORTS = "lldpLocal.ports";

/** the lldpLocPortTable read (add it to a client data part's reads) */
export const localPortReads: Plan = {
  [LOCAL_PORTS]: { label: "lldpLocPortTable", columns: [lldp.lldpLocPortId, lldpLocPort.lldpLocPortDesc], rows: 32 },
};

/** lldpLocPortNum -> ifIndex, by the rule in the file comment */
export function localPortMap(tables: Tables, ports: PortMap): Map<number, number> {
  const table = tables.columns(LOCAL_PORTS);
  const byName = new Map<string, number | null>();
  for (const [ifIndex, name] of ports.names) byName.set(name, byName.has(name) ? null : ifIndex);
  const ids = table?.get(lldp.lldpLocPortId);
  const descs = table?.get(lldpLocPort.lldpLocPortDesc);
  const out = new Map<number, number>();
  for (const index of new Set([...(ids?.keys() ?? []), ...(descs?.keys() ?? [])])) {
    const local = Number(index);
    if (!Number.isInteger(local)) continue;
    const named = [asText(ids?.get(index)), asText(descs?.get(index))]
      .map((n) => (n ? byName.get(n) : undefined))
      .find((i) => typeof i === "number");
    const viaBridge = interfaceOfPort(ports.bridge, local);
    const ifIndex =
      named ??
      (ports.ifIndexes.has(local)
        ? local
        : viaBridge !== null && ports.ifIndexes.has(viaBridge)
          ? viaBridge
          : undefined);
    if (ifIndex !== undefined) out.set(local, ifIndex);
  }
  return out;
}

/** neighbours by ifIndex, their local ports mapped by localPortMap (unnamed ports as ifIndexes, then bridge ports) */
export function neighboursByLocalPort(tables: Tables, ports: PortMap) {
  const map = localPortMap(tables, ports);
  if (map.size === 0) return lldpNeighbours(tables, ports);
  const local: BridgePorts = { assumed: false, portToIf: map, ifToPort: new Map([...map].map(([l, i]) => [i, l])) };
  return lldpNeighbours(tables, { ...ports, bridge: local });
}
