/**
 * The details view of Cisco IOS: IOS keeps one BRIDGE-MIB instance per VLAN. The default
 * context is VLAN 1's; VLAN n's forwarding table and bridge port map are read with the
 * community "community@n" (v2c) or the context "vlan-n" (v3). Only VLANs VTP lists as
 * operational are asked (a suspended VLAN has no bridge instance), at most
 * MAX_VLAN_CONTEXTS of them, a few at a time; each costs one GETBULK of its two columns
 * when small. A VLAN context that does not answer while the device itself still does is
 * a VLAN without a bridge instance: its MAC entries are missing, the view is not.
 * ARP and LLDP come from the standard MIBs (LLDP's local port numbers are ifIndexes on IOS).
 * The contexts' port maps also tell which VLANs a trunk carries where the device has no
 * vlanTrunkPortVlansEnabled (vlans.ts reads them).
 */
import { bridge, system } from "../../../mib/oids";
import type { LldpNeighbor, MacEntry, VlanInfo } from "../../../model/device";
import { DeviceUnreachable } from "../../../model/failures";
import { bridgePortsFrom, interfaceOfPort, type BridgePorts } from "../../snmp/parts/bridge-ports";
import { arpByMac, lldpNeighbours, neighbourReads } from "../../snmp/parts/client-standard";
import { type ClientDataPart, type PartIo, type Plan, type PortMap, Tables } from "../../snmp/parts/part";
import type { Columns } from "../../snmp/session";
import { asInt, macFromArcs } from "../../snmp/varbind-values";

/** VLAN contexts read at most for one details view */
export const MAX_VLAN_CONTEXTS = 128;
/** VLAN contexts read at the same time */
const CONTEXTS_AT_ONCE = 4;

const DEFAULT_FDB = "cisco.fdb";
/** tables of VLAN n's context are under this key + n (the VLAN part reads their port maps too) */
export const CONTEXT_PREFIX = "cisco.vlanContext.";

function macsOf(
  out: Map<number, MacEntry[]>,
  fdb: Columns | undefined,
  ports: BridgePorts,
  vlan: number,
  ipv4: Map<string, string[]>,
): void {
  for (const [index, vb] of fdb?.get(bridge.dot1dTpFdbPort) ?? []) {
    const arcs = index.split(".");
    if (arcs.length !== 6) continue;
    const port = asInt(vb);
    // port 0: the switch's own or a static address
    const ifIndex = port > 0 ? interfaceOfPort(ports, port) : null;
    if (ifIndex === null || ports.assumed) continue;
    const mac = macFromArcs(arcs);
    const list = out.get(ifIndex) ?? [];
    list.push({ address: mac, vlan, ipv4: ipv4.get(mac) ?? [], ipv6: [] });
    out.set(ifIndex, list);
  }
}

export function ciscoClientData(): ClientDataPart {
  return {
    reads(): Plan {
      return {
        [DEFAULT_FDB]: { label: "dot1dTpFdbTable of VLAN 1", columns: [bridge.dot1dTpFdbPort], rows: 100 },
        ...neighbourReads,
      };
    },

    async more(io: PartIo, _tables: Tables, _ports: PortMap, vlans: VlanInfo[]): Promise<Tables> {
      const wanted = vlans.filter((v) => v.id !== 1 && v.state === "Enabled").slice(0, MAX_VLAN_CONTEXTS);
      const out = new Tables();
      let next = 0;
      const worker = async () => {
        while (next < wanted.length) {
          const vlan = wanted[next++].id;
          const session = io.contextSession({ community: String(vlan), v3: `vlan-${vlan}` });
          try {
            const columns = await session.readColumns([bridge.dot1dBasePortIfIndex, bridge.dot1dTpFdbPort], {
              label: `BRIDGE-MIB of VLAN ${vlan}`,
              rows: 64,
            });
            out.setColumns(`${CONTEXT_PREFIX}${vlan}`, columns);
          } catch (error) {
            if (!(error instanceof DeviceUnreachable)) throw error;
            // silent in this context only, or gone altogether? the device says
            await io.session.get([`${system.sysUpTime}.0`], "sysUpTime");
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(CONTEXTS_AT_ONCE, wanted.length) }, worker));
      return out;
    },

    macs(tables: Tables, ports: PortMap): Map<number, MacEntry[]> {
      const ipv4 = arpByMac(tables);
      const out = new Map<number, MacEntry[]>();
      macsOf(out, tables.columns(DEFAULT_FDB), ports.bridge, 1, ipv4);
      for (const [key, columns] of tables.allColumns()) {
        if (!key.startsWith(CONTEXT_PREFIX)) continue;
        const vlan = Number(key.slice(CONTEXT_PREFIX.length));
        macsOf(out, columns, bridgePortsFrom(columns.get(bridge.dot1dBasePortIfIndex)), vlan, ipv4);
      }
      return out;
    },

    neighbors(tables: Tables, ports: PortMap): Map<number, LldpNeighbor[]> {
      // IOS numbers LLDP local ports by ifIndex, not by bridge port
      return lldpNeighbours(tables, { ...ports, bridge: bridgePortsFrom(undefined) });
    },
  };
}
