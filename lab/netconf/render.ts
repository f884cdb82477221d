/**
 * The lab NETCONF face's answers to Junos operational RPCs, rendered from the lab model
 * in the element names Junos uses (ELS switches, or the older EX style where the RPC's
 * answer differs): software, interfaces (normal and terse), VLANs, PoE, LLDP, the
 * Ethernet switching table and ARP. Each function returns the XML that goes inside
 * `<rpc-reply>`; null means "no such object" (the caller answers an rpc-error).
 */
import { formatMac, type LabInterface } from "../hardware";
import type { VirtualSwitch } from "../model";
import { escapeXml as esc } from "../../model/xml";
import type { SwitchStyle } from "./junos-config";

const t = (name: string, text: string | number) => `<${name}>${esc(String(text))}</${name}>`;
const JUNOS_IF_NS = "http://xml.juniper.net/junos/18.4R2/junos-interface";

export function softwareInformation(model: VirtualSwitch): string {
  const s = model.system;
  return (
    `<software-information>${t("host-name", s.sysName)}${t("product-model", s.model)}` +
    `${t("product-name", s.model)}${t("junos-version", s.softwareVersion)}` +
    `<package-information>${t("name", "junos")}${t("comment", `JUNOS Software Release [${s.softwareVersion}]`)}</package-information>` +
    `</software-information>`
  );
}

export function chassisInventory(model: VirtualSwitch): string {
  return `<chassis-inventory><chassis junos:style="inventory">${t("name", "Chassis")}${t("serial-number", model.system.serial)}${t("description", model.system.model.toUpperCase())}</chassis></chassis-inventory>`;
}

export function routeEngineInformation(model: VirtualSwitch): string {
  const up = Math.floor(model.uptimeTicks() / 100);
  return `<route-engine-information><route-engine>${t("slot", 0)}${t("mastership-state", "master")}${t("status", "OK")}${t("model", "RE-" + model.system.model.toUpperCase())}<up-time junos:seconds="${up}">${up} seconds</up-time></route-engine></route-engine-information>`;
}

function speedText(i: LabInterface): string {
  if (i.ifType !== 6 || i.speedMbps === 0) return "Unspecified";
  return i.speedMbps >= 10000 ? `${i.speedMbps / 1000}Gbps` : `${i.speedMbps}mbps`;
}

const updown = (b: boolean) => (b ? "up" : "down");

/** the units of a physical interface: the model's interfaces named "<name>.<n>" */
function unitsOf(model: VirtualSwitch, name: string): LabInterface[] {
  return model.interfaces.filter((u) => u.name.startsWith(`${name}.`) && /^\d+$/.test(u.name.slice(name.length + 1)));
}

function parentOf(model: VirtualSwitch, i: LabInterface): LabInterface | undefined {
  const dot = i.name.lastIndexOf(".");
  return dot < 0 ? undefined : model.interfaces.find((p) => p.name === i.name.slice(0, dot));
}

function logical(
  model: VirtualSwitch,
  u: LabInterface,
  terse: boolean,
  switching: boolean,
  portIpv4: LabInterface["ipv4"] = null,
): string {
  const description = model.alias(u.ifIndex);
  let families = "";
  const ipv4 = u.ipv4 ?? portIpv4;
  if (ipv4) {
    families += `<address-family>${t("address-family-name", "inet")}<interface-address>${t("ifa-local", ipv4.address)}</interface-address></address-family>`;
  }
  if (switching) families += `<address-family>${t("address-family-name", "eth-switch")}</address-family>`;
  return (
    `<logical-interface>${t("name", u.name)}` +
    `${t("admin-status", updown(model.adminUp(u.ifIndex)))}${t("oper-status", updown(model.operUp(u.ifIndex)))}` +
    `${!terse && description ? t("description", description) : ""}${families}</logical-interface>`
  );
}

function physical(model: VirtualSwitch, i: LabInterface, terse: boolean): string {
  const ethernet = i.ifType === 6;
  const up = model.operUp(i.ifIndex);
  const description = model.alias(i.ifIndex);
  // a routed port: its address sits on its unit 0 (the lab's model keeps it on the port;
  // lab simplification: the unit then reads as routed too)
  const units = unitsOf(model, i.name)
    .map((u) => logical(model, u, terse, i.bridgePort !== null, u.name === `${i.name}.0` ? i.ipv4 : null))
    .join("");
  const routedUnit =
    i.ipv4 && units === ""
      ? `<logical-interface>${t("name", `${i.name}.0`)}<address-family>${t("address-family-name", "inet")}<interface-address>${t("ifa-local", i.ipv4.address)}</interface-address></address-family></logical-interface>`
      : "";
  const head = `${t("name", i.name)}${t("admin-status", updown(model.adminUp(i.ifIndex)))}${t("oper-status", updown(up))}`;
  if (terse) return `<physical-interface>${head}${units}${routedUnit}</physical-interface>`;
  return (
    `<physical-interface>${head}` +
    `${description ? t("description", description) : ""}` +
    `${t("local-index", i.ifIndex)}${t("snmp-index", i.ifIndex)}` +
    `${ethernet ? t("link-level-type", "Ethernet") : ""}${t("mtu", i.mtu === 1500 ? 1514 : i.mtu)}` +
    `${t("speed", speedText(i))}` +
    `${ethernet && up ? t("link-mode", i.duplex === "half" ? "Half-duplex" : "Full-duplex") : ""}` +
    `${i.mac.length ? t("current-physical-address", formatMac(i.mac)) : ""}` +
    `${units}${routedUnit}</physical-interface>`
  );
}

/**
 * `show interfaces [terse] [name]`: every physical interface with its units; a unit whose
 * interface the lab does not have (irb.0) stands alone, as Junos answers for one unit.
 * Null when `name` names nothing.
 */
export function interfaceInformation(model: VirtualSwitch, opts: { terse: boolean; name?: string }): string | null {
  const style = opts.terse ? "terse" : "normal";
  let body = "";
  const wanted = opts.name;
  for (const i of model.interfaces) {
    if (wanted !== undefined && i.name !== wanted) continue;
    const parent = parentOf(model, i);
    if (i.name.includes(".")) {
      if (parent && wanted === undefined) continue; // shown inside its interface
      body += logical(model, i, opts.terse, parent !== undefined && parent.bridgePort !== null);
    } else body += physical(model, i, opts.terse);
  }
  if (wanted !== undefined && body === "") return null;
  return `<interface-information xmlns="${JUNOS_IF_NS}" junos:style="${style}">${body}</interface-information>`;
}

function vlanMembers(model: VirtualSwitch, id: number): Array<{ name: string; tagged: boolean; trunk: boolean }> {
  const v = model.vlan(id)!;
  const cfg = model.running;
  return model.interfaces
    .filter((i) => i.bridgePort !== null && v.egress.has(i.bridgePort))
    .map((i) => ({
      name: `${i.name}.0`,
      tagged: !v.untagged.has(i.bridgePort!),
      trunk: cfg.portModes.get(i.bridgePort!) === "trunk",
    }));
}

/** `show vlans extensive`: ELS (l2ng-...) or the older EX shape */
export function vlanInformation(model: VirtualSwitch, style: SwitchStyle): string {
  if (style === "legacy") {
    const body = model
      .vlanIds()
      .map((id) => {
        const v = model.vlan(id)!;
        const members = vlanMembers(model, id)
          .map(
            (m) =>
              `<vlan-member>${t("vlan-member-interface", `${m.name}*`)}${t("vlan-member-tagness", m.tagged ? "tagged" : "untagged")}${t("vlan-member-port-mode", m.trunk ? "trunk" : "access")}</vlan-member>`,
          )
          .join("");
        return `<vlan>${t("vlan-instance", 0)}${t("vlan-name", v.name)}${t("vlan-tag", id)}${t("vlan-status", v.active ? "Enabled" : "Disabled")}<vlan-detail><vlan-member-list>${members}</vlan-member-list></vlan-detail></vlan>`;
      })
      .join("");
    return `<vlan-information>${body}</vlan-information>`;
  }
  const body = model
    .vlanIds()
    .map((id) => {
      const v = model.vlan(id)!;
      const members = vlanMembers(model, id)
        .map(
          (m) =>
            `<l2ng-l2rtb-vlan-member>${t("l2ng-l2rtb-vlan-member-interface", `${m.name}*`)}${t("l2ng-l2rtb-vlan-member-tagness", m.tagged ? "tagged" : "untagged")}${t("l2ng-l2rtb-vlan-member-interface-mode", m.trunk ? "trunk" : "access")}</l2ng-l2rtb-vlan-member>`,
        )
        .join("");
      return `<l2ng-l2ald-vlan-instance-group>${t("l2ng-l2rtb-name", "default-switch")}${t("l2ng-l2rtb-vlan-name", v.name)}${t("l2ng-l2rtb-vlan-tag", id)}${members}</l2ng-l2ald-vlan-instance-group>`;
    })
    .join("");
  return `<l2ng-l2ald-vlan-instance-information>${body}</l2ng-l2ald-vlan-instance-information>`;
}

const watts = (mw: number) => `${(mw / 1000).toFixed(1)}W`;

/** `show poe interface [name]`; null when the switch has no PoE (or the port none) */
export function poeInterfaceInformation(model: VirtualSwitch, name?: string): string | null {
  const ports = model.interfaces.filter((i) => i.poe && (name === undefined || i.name === name));
  if (ports.length === 0) return null;
  const body = ports
    .map((i) => {
      const s = model.poeState(i.ifIndex)!;
      const status = !s.enabled ? "Disabled" : s.powerMw > 0 ? "ON" : "OFF";
      return `<interface-information>${t("interface-name", i.name)}${t("interface-enabled", s.enabled ? "Enabled" : "Disabled")}${t("interface-status", status)}${t("interface-power-limit", "30.0W")}${t("interface-power", watts(s.powerMw))}${t("interface-class", i.poe!.device ? i.poe!.device.powerClass : "not-applicable")}</interface-information>`;
    })
    .join("");
  return `<poe>${body}</poe>`;
}

export function poeControllerInformation(model: VirtualSwitch): string | null {
  const main = model.poeMain;
  if (!main) return null;
  return `<poe><controller-information>${t("controller-number", 0)}${t("controller-maxpower", `${main.maxPowerW}.00W`)}${t("controller-power", `${model.poeConsumedW()}.00W`)}${t("controller-guard-band", "0W")}${t("controller-management", "Static")}${t("controller-status", "AT_MODE")}</controller-information></poe>`;
}

const CHASSIS_SUBTYPE: Record<number, string> = { 4: "Mac address", 7: "Locally assigned" };
const PORT_SUBTYPE: Record<number, string> = { 3: "Mac address", 5: "Interface name", 7: "Locally assigned" };

function capabilityText(bits: number): string {
  const names: string[] = [];
  if (bits & 0x20) names.push("Bridge");
  if (bits & 0x10) names.push("WLAN Access Point");
  if (bits & 0x08) names.push("Router");
  if (bits & 0x04) names.push("Telephone");
  return names.join(" ");
}

/** `show lldp neighbors` (summary), or the detail of one local interface's neighbours */
export function lldpNeighbors(model: VirtualSwitch, detailOf?: string): string {
  const body = model.lldp
    .map((n) => ({ n, port: model.interfaceOfBridgePort(n.localPort) }))
    .filter(({ port }) => port && (detailOf === undefined || port.name === detailOf))
    .map(({ n, port }) => {
      const chassis = n.chassisIdSubtype === 4 ? formatMac(n.chassisId) : n.chassisId.toString();
      const portId = n.portIdSubtype === 3 ? formatMac(n.portId) : n.portId.toString();
      let x =
        `<lldp-neighbor-information>${t("lldp-local-port-id", port!.name)}${t("lldp-local-parent-interface-name", "-")}` +
        `${t("lldp-remote-chassis-id-subtype", CHASSIS_SUBTYPE[n.chassisIdSubtype] ?? "Locally assigned")}${t("lldp-remote-chassis-id", chassis)}` +
        `${t("lldp-remote-port-id-subtype", PORT_SUBTYPE[n.portIdSubtype] ?? "Locally assigned")}${t("lldp-remote-port-id", portId)}` +
        `${t("lldp-remote-port-description", n.portDesc)}${t("lldp-remote-system-name", n.sysName)}`;
      if (detailOf !== undefined) {
        x +=
          `${t("lldp-local-interface", `${port!.name}.0`)}` +
          `<lldp-system-description>${t("lldp-remote-system-description", n.sysDesc)}</lldp-system-description>` +
          `${t("lldp-remote-system-capabilities-supported", capabilityText(n.capSupported))}` +
          `${t("lldp-remote-system-capabilities-enabled", capabilityText(n.capEnabled))}` +
          (n.mgmtIpv4
            ? `${t("lldp-remote-management-address-type", "IPv4(1)")}${t("lldp-remote-management-address", n.mgmtIpv4)}`
            : "");
      }
      return `${x}</lldp-neighbor-information>`;
    })
    .join("");
  return `<lldp-neighbors-information junos:style="${detailOf === undefined ? "brief" : "detail"}">${body}</lldp-neighbors-information>`;
}

/** `show ethernet-switching table`: ELS (l2ng-l2ald-rtb-macdb) or the older shape */
export function switchingTable(model: VirtualSwitch, style: SwitchStyle, summary: boolean): string {
  if (style === "legacy") {
    if (summary)
      return `<ethernet-switching-table-information><ethernet-switching-table>${t("mac-table-count", model.fdb.length)}</ethernet-switching-table></ethernet-switching-table-information>`;
    const body = model.fdb
      .map((e) => {
        const port = model.interfaceOfBridgePort(e.bridgePort);
        return `<mac-table-entry>${t("mac-vlan", model.vlan(e.vlan)?.name ?? String(e.vlan))}${t("mac-vlan-tag", e.vlan)}${t("mac-address", formatMac(e.mac))}${t("mac-type", "Learn")}${t("mac-interface", port ? `${port.name}.0` : "")}</mac-table-entry>`;
      })
      .join("");
    return `<ethernet-switching-table-information><ethernet-switching-table>${body}</ethernet-switching-table></ethernet-switching-table-information>`;
  }
  if (summary) return `<l2ng-l2ald-rtb-macdb>${t("l2ng-l2-mac-count", model.fdb.length)}</l2ng-l2ald-rtb-macdb>`;
  const byVlan = new Map<number, string[]>();
  for (const e of model.fdb) {
    const port = model.interfaceOfBridgePort(e.bridgePort);
    const name = model.vlan(e.vlan)?.name ?? String(e.vlan);
    const row = `<l2ng-mac-entry>${t("l2ng-l2-mac-vlan-name", name)}${t("l2ng-l2-vlan-id", e.vlan)}${t("l2ng-l2-mac-address", formatMac(e.mac))}${t("l2ng-l2-mac-flags", "D")}${t("l2ng-l2-mac-logical-interface", port ? `${port.name}.0` : "")}</l2ng-mac-entry>`;
    byVlan.set(e.vlan, [...(byVlan.get(e.vlan) ?? []), row]);
  }
  const body = [...byVlan]
    .map(
      ([, rows]) =>
        `<l2ng-l2ald-mac-entry-vlan junos:style="brief-rtb">${t("l2ng-l2-mac-routing-instance", "default-switch")}${rows.join("")}</l2ng-l2ald-mac-entry-vlan>`,
    )
    .join("");
  return `<l2ng-l2ald-rtb-macdb>${body}</l2ng-l2ald-rtb-macdb>`;
}

export function arpTable(model: VirtualSwitch): string {
  const body = model.arp
    .map((a) => {
      const iface = model.interface(a.ifIndex);
      return `<arp-table-entry>${t("mac-address", formatMac(a.mac))}${t("ip-address", a.ip)}${t("interface-name", iface?.name ?? "irb.0")}</arp-table-entry>`;
    })
    .join("");
  return `<arp-table-information junos:style="normal">${body}${t("arp-entry-count", model.arp.length)}</arp-table-information>`;
}
