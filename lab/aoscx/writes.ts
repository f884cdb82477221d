/**
 * The writes of the lab's AOS-CX REST face, applied to the lab model so every face sees
 * them: PATCH (the keys given) and PUT (every writable attribute, omitted ones back to
 * their defaults) of an interface, its poe_interface and a VLAN; POST and DELETE of
 * VLANs. A write the switch would refuse is a WriteRefused (status and plain-text words,
 * nothing changed); the model keeps its own rules (every PVID an existing VLAN).
 */
import { applySwitchport, carryNewVlan, switchportOf, type SwitchConfig } from "../config";
import type { LabInterface, VirtualSwitch } from "../model";
import { INTERFACE_WRITABLE, POE_WRITABLE, portVlans, VLAN_WRITABLE } from "./resources";

export class WriteRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const bad = (message: string) => new WriteRefused(400, message);

type Body = Record<string, unknown>;

export const MAX_DESCRIPTION = 64;
export const MAX_VLAN_NAME = 32;

function isObject(v: unknown): v is Body {
  return !!v && typeof v === "object" && !Array.isArray(v);
}

export function parseBody(text: string): Body {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw bad("Malformed JSON in the request body");
  }
  if (!isObject(parsed)) throw bad("The request body must be a JSON object");
  return parsed;
}

function onlyWritable(body: Body, writable: readonly string[], what: string): void {
  for (const key of Object.keys(body))
    if (!writable.includes(key)) throw bad(`Attribute '${key}' of ${what} is not writable`);
}

/** VLAN ids of a reference map ({"10": "/rest/v10.16/system/vlans/10"}) */
function vlanIdsOf(value: unknown, what: string): number[] {
  if (!isObject(value)) throw bad(`${what} must be an object of VLAN references`);
  return Object.keys(value).map((k) => {
    const id = Number(k);
    if (!/^\d+$/.test(k) || id < 1 || id > 4094) throw bad(`${what}: '${k}' is not a VLAN id`);
    return id;
  });
}

function adminValue(value: unknown, what: string): boolean | null {
  if (value === null || value === undefined) return null;
  if (value === "up") return true;
  if (value === "down") return false;
  throw bad(`${what} must be "up" or "down"`);
}

function checkDescription(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value !== "string") throw bad("description must be a string");
  if ([...value].length > MAX_DESCRIPTION) throw bad(`description is longer than ${MAX_DESCRIPTION} characters`);
  // eslint-disable-next-line no-control-regex -- the switch refuses control characters in a description
  if (/[\u0000-\u001f\u007f]/.test(value)) throw bad("description contains control characters");
  return value;
}

/** PATCH (put = false) or PUT of an interface. */
export function writeInterface(model: VirtualSwitch, i: LabInterface, body: Body, put: boolean, lie: boolean): void {
  onlyWritable(body, INTERFACE_WRITABLE, `interface ${i.name}`);
  const userConfig = body.user_config;
  if (userConfig !== undefined && userConfig !== null && !isObject(userConfig))
    throw bad("user_config must be an object");
  const admin =
    adminValue(isObject(userConfig) ? userConfig.admin : undefined, "user_config.admin") ??
    adminValue(body.admin, "admin") ??
    (put ? true : null);
  const description = "description" in body || put ? checkDescription(body.description) : null;
  const bp = i.bridgePort;
  const switchportKeys = ["vlan_mode", "vlan_tag", "vlan_trunks"].filter((k) => k in body && body[k] !== null);
  if (body.routing !== undefined && body.routing !== null && body.routing !== (bp === null))
    throw bad(`interface ${i.name}: changing between routed and switched is not supported here`);
  if (bp === null && switchportKeys.length > 0) throw bad(`interface ${i.name} is routed; it has no VLAN settings`);

  let vlanEdit: ((cfg: SwitchConfig) => void) | null = null;
  if (bp !== null && (switchportKeys.length > 0 || put)) {
    const now = portVlans(model, bp);
    const modeText = body.vlan_mode ?? (put ? "access" : now.trunk ? "native-untagged" : "access");
    if (typeof modeText !== "string" || !["access", "native-untagged", "native-tagged"].includes(modeText))
      throw bad(`vlan_mode must be access, native-untagged or native-tagged`);
    const trunk = modeText !== "access";
    const tagIds = body.vlan_tag === undefined || body.vlan_tag === null ? null : vlanIdsOf(body.vlan_tag, "vlan_tag");
    if (tagIds && tagIds.length !== 1) throw bad("vlan_tag must name exactly one VLAN");
    const tag = tagIds ? tagIds[0] : put ? 1 : null;
    const trunks =
      body.vlan_trunks === undefined || body.vlan_trunks === null ? null : vlanIdsOf(body.vlan_trunks, "vlan_trunks");
    for (const id of [...(tag === null ? [] : [tag]), ...(trunks ?? [])])
      if (!model.vlan(id)) throw bad(`VLAN ${id} does not exist`);
    vlanEdit = (cfg) => {
      // a port that was a trunk only by its memberships gets its settings from them first
      if (now.trunk && !cfg.portModes.has(bp)) {
        cfg.switchport.set(bp, { access: 1, native: now.untagged, allowed: new Set(now.carried) });
        cfg.portModes.set(bp, "trunk");
      }
      const s = { ...switchportOf(cfg, bp) };
      if (tag !== null) {
        if (trunk) s.native = tag;
        else s.access = tag;
      }
      if (trunks !== null) s.allowed = trunks.length === 0 ? "all" : new Set(trunks);
      else if (put) s.allowed = "all";
      cfg.switchport.set(bp, s);
      if (trunk) cfg.portModes.set(bp, "trunk");
      else cfg.portModes.delete(bp);
      applySwitchport(cfg, bp);
    };
  }
  if (lie) return;
  model.update((cfg) => {
    const port = cfg.ports.get(i.ifIndex)!;
    if (admin !== null) port.adminUp = admin;
    if (description !== null) port.alias = description;
    vlanEdit?.(cfg);
  });
}

/** PATCH or PUT of an interface's poe_interface. */
export function writePoe(model: VirtualSwitch, i: LabInterface, body: Body, put: boolean, lie: boolean): void {
  onlyWritable(body, POE_WRITABLE, `the PoE settings of ${i.name}`);
  const config = body.config;
  if (config === undefined && put) throw bad("config is required");
  if (config === undefined) return;
  if (!isObject(config)) throw bad("config must be an object");
  const disable = config.admin_disable;
  if (disable !== undefined && typeof disable !== "boolean") throw bad("config.admin_disable must be true or false");
  const enabled = disable === undefined ? (put ? true : null) : !disable;
  if (lie || enabled === null) return;
  model.update((cfg) => void (cfg.ports.get(i.ifIndex)!.poeEnabled = enabled));
}

function checkVlanName(value: unknown): string {
  if (typeof value !== "string" || value === "") throw bad("name must be a non-empty string");
  if ([...value].length > MAX_VLAN_NAME) throw bad(`name is longer than ${MAX_VLAN_NAME} characters`);
  // eslint-disable-next-line no-control-regex -- the switch refuses control characters in a VLAN name
  if (/[\u0000-\u001f\u007f]/.test(value)) throw bad("name contains control characters");
  return value;
}

function checkVlanRest(body: Body): void {
  if (body.admin !== undefined && body.admin !== null && body.admin !== "up")
    throw bad('admin: the lab keeps every VLAN "up"');
  if (body.voice !== undefined && typeof body.voice !== "boolean") throw bad("voice must be true or false");
}

/** PATCH or PUT of a VLAN. */
export function writeVlan(model: VirtualSwitch, id: number, body: Body, put: boolean, lie: boolean): void {
  onlyWritable(body, VLAN_WRITABLE, `VLAN ${id}`);
  checkVlanRest(body);
  const name = body.name !== undefined ? checkVlanName(body.name) : put ? model.profile.newVlanName(id) : null;
  if (lie || name === null) return;
  model.update((cfg) => void (cfg.vlans.get(id)!.name = name));
}

/** POST of a new VLAN (201). */
export function createVlan(model: VirtualSwitch, body: Body, lie: boolean): void {
  const id = body.id;
  if (typeof id !== "number" || !Number.isInteger(id) || id < 1 || id > 4094)
    throw bad("id must be a VLAN id from 1 to 4094");
  for (const key of Object.keys(body))
    if (!["id", "type", ...VLAN_WRITABLE].includes(key)) throw bad(`Attribute '${key}' of a VLAN is not writable`);
  if (body.type !== undefined && body.type !== "static") throw bad('type must be "static"');
  checkVlanRest(body);
  if (model.vlan(id)) throw bad(`VLAN ${id} already exists`);
  if (model.vlanIds().length >= model.profile.maxVlans) throw bad(`the switch has ${model.profile.maxVlans} VLANs`);
  const name = body.name !== undefined ? checkVlanName(body.name) : model.profile.newVlanName(id);
  if (lie) return;
  model.update((cfg) => {
    cfg.vlans.set(id, { name, active: true, egress: new Set(), untagged: new Set() });
    carryNewVlan(cfg, id);
  });
}

/** DELETE of a VLAN (204). */
export function deleteVlan(model: VirtualSwitch, id: number, lie: boolean): void {
  if (id === 1) throw bad("The default VLAN cannot be deleted");
  const users = model.bridgePorts
    .filter((bp) => model.pvid(bp) === id)
    .map((bp) => model.interfaceOfBridgePort(bp)?.name ?? String(bp));
  // lab rule (as on its other faces): a VLAN that is a port's untagged VLAN stays
  if (users.length > 0) throw bad(`VLAN ${id} is the access or native VLAN of ${users.join(", ")}; move them first`);
  if (lie) return;
  model.update((cfg) => cfg.vlans.delete(id));
}
