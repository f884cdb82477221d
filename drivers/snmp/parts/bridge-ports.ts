/**
 * BRIDGE-MIB numbers ports on its own (dot1dBasePort); Q-BRIDGE tables and PortList
 * bitmaps speak of those numbers, the rest of the world of ifIndex. Without a
 * dot1dBasePortTable the port number is taken to be the ifIndex, as OpenL2M does.
 */
import type { Varbind } from "../net-snmp-api";
import { asInt } from "../varbind-values";

export interface BridgePorts {
  /** true when the device has no dot1dBasePortTable and port == ifIndex is assumed */
  assumed: boolean;
  portToIf: Map<number, number>;
  ifToPort: Map<number, number>;
}

export function bridgePortsFrom(column: Map<string, Varbind> | undefined): BridgePorts {
  const portToIf = new Map<number, number>();
  const ifToPort = new Map<number, number>();
  for (const [index, vb] of column ?? []) {
    const port = Number(index);
    const ifIndex = asInt(vb);
    if (!Number.isInteger(port) || ifIndex <= 0) continue;
    portToIf.set(port, ifIndex);
    ifToPort.set(ifIndex, port);
  }
  return { assumed: portToIf.size === 0, portToIf, ifToPort };
}

/** Bridge port of an interface, or null when it is not a bridge port. */
export function portOfInterface(ports: BridgePorts, ifIndex: number): number | null {
  if (ports.assumed) return ifIndex;
  return ports.ifToPort.get(ifIndex) ?? null;
}

export function interfaceOfPort(ports: BridgePorts, port: number): number | null {
  if (ports.assumed) return port;
  return ports.portToIf.get(port) ?? null;
}
