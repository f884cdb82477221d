/**
 * The conformance suite's part for "where is it plugged in" (app/find.ts): what a driver's
 * details view must give for the search to tell an edge port from an uplink and to find
 * an IP through ARP, checked against the lab's model. The lab's uplink has the core (a
 * bridge and router) as LLDP neighbour; phones and access points are neighbours on edge
 * ports; desk switches (lab option lldpNeighbours) are bridges. Drivers spell LLDP
 * capabilities their own way ("Switch, Router", "Bridge, Router", IOS letters turned into
 * names): the domain's rule must read each of them.
 */
import type { VirtualSwitch } from "../../lab/model";
import { formatMac } from "../../lab/hardware";
import type { DeviceSnapshot } from "../../model/device";
import { macsOfIp, portRole } from "../../domain/find";
import { FIND_DEFAULTS } from "../../app/find-config";

/** LldpSystemCapabilitiesMap bits of a network device: repeater, bridge, router */
const NETWORK_BITS = 0x40 | 0x20 | 0x08;

export function checkFindRoles(model: VirtualSwitch, snap: DeviceSnapshot, idOf: (ifIndex: number) => string): void {
  const limit = FIND_DEFAULTS.uplinkMacs;
  const macsOn = (bridgePort: number) => model.fdb.filter((e) => e.bridgePort === bridgePort).length;
  let uplinks = 0;
  for (const port of model.ethernetPorts) {
    const bp = port.bridgePort!;
    const neighbours = model.lldp.filter((n) => n.localPort === bp);
    const network = neighbours.some((n) => n.capEnabled === 0 || (n.capEnabled & NETWORK_BITS) !== 0);
    const expected = network || macsOn(bp) > limit ? "uplink" : "edge";
    if (expected === "uplink") uplinks++;
    const got = snap.interfaces.find((i) => i.id === idOf(port.ifIndex))!;
    expect({ port: port.name, neighbours: neighbours.map((n) => n.sysName), role: portRole(got, limit).role }).toEqual({
      port: port.name,
      neighbours: neighbours.map((n) => n.sysName),
      role: expected,
    });
  }
  expect(uplinks).toBeGreaterThan(0);
  // an IP of the ARP table stands for the MAC the table maps it to
  const entries = snap.interfaces.flatMap((i) => i.macs);
  for (const a of model.arp.slice(0, 3))
    expect([a.ip, [...macsOfIp({ kind: "ipv4", ip: a.ip }, entries)]]).toEqual([a.ip, [formatMac(a.mac)]]);
}
