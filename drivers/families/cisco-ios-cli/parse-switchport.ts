/**
 * `show interfaces switchport`: one block of "Key: value" lines per interface, starting
 * at "Name:". Only the VLAN facts are kept. The trunk's VLAN list may wrap onto
 * indented lines; a block may stop after its admin mode (ports that are not up yet).
 */
import { textLines } from "./text-lines";

export interface SwitchportRow {
  interface: string;
  /** "Enabled" or "Disabled" (a routed port) */
  switchport: string;
  /** "static access", "trunk", "dynamic auto", ... */
  adminMode: string;
  /** "static access", "trunk", "down", "trunk (member of bundle Po1)", ... ("" when not printed) */
  operMode: string;
  /** Administrative Trunking Encapsulation: "dot1q", "negotiate", "isl" ("" when not printed) */
  adminEncapsulation: string;
  /** "10", "unassigned", or "" */
  accessVlan: string;
  nativeVlan: string;
  /** "none", "200", or "" */
  voiceVlan: string;
  /** as printed: ["ALL"], ["1", "12", "31-36"], or [] */
  trunkingVlans: string[];
}

const KEY_VALUE = /^([A-Za-z][^:]*?):\s*(.*)$/;

/** "100 (PLC1)" -> "100"; "unassigned" stays */
const firstWord = (value: string) => value.trim().split(/\s+/)[0] ?? "";

export function parseSwitchport(text: string): SwitchportRow[] {
  const rows: SwitchportRow[] = [];
  let row: SwitchportRow | null = null;
  let continuing: "trunking" | null = null;
  for (const line of textLines(text)) {
    if (continuing && /^\s+\S/.test(line) && row) {
      row.trunkingVlans.push(...vlanItems(line));
      continue;
    }
    continuing = null;
    const kv = KEY_VALUE.exec(line);
    if (!kv) continue;
    const [, key, value] = kv;
    if (key === "Name") {
      row = {
        interface: value.trim(),
        switchport: "",
        adminMode: "",
        operMode: "",
        adminEncapsulation: "",
        accessVlan: "",
        nativeVlan: "",
        voiceVlan: "",
        trunkingVlans: [],
      };
      rows.push(row);
      continue;
    }
    if (!row) continue;
    switch (key) {
      case "Switchport":
        row.switchport = value.trim();
        break;
      case "Administrative Mode":
        row.adminMode = value.trim();
        break;
      case "Operational Mode":
        row.operMode = value.trim();
        break;
      case "Administrative Trunking Encapsulation":
        row.adminEncapsulation = value.trim();
        break;
      case "Access Mode VLAN":
        row.accessVlan = firstWord(value);
        break;
      case "Trunking Native Mode VLAN":
        row.nativeVlan = firstWord(value);
        break;
      case "Voice VLAN":
        row.voiceVlan = firstWord(value);
        break;
      case "Trunking VLANs Enabled":
        row.trunkingVlans = vlanItems(value);
        continuing = "trunking";
        break;
    }
  }
  return rows;
}

function vlanItems(text: string): string[] {
  return text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * The VLAN ids of a trunk list ("1,12,31-36"), limited to `known` (the switch's VLANs):
 * "ALL" is every known VLAN, "none" none.
 */
export function expandVlanList(items: readonly string[], known: ReadonlySet<number>): number[] {
  const out = new Set<number>();
  for (const item of items) {
    if (/^all$/i.test(item)) {
      for (const id of known) out.add(id);
      continue;
    }
    const m = /^(\d+)(?:-(\d+))?$/.exec(item);
    if (!m) continue;
    const from = Number(m[1]);
    const to = m[2] ? Number(m[2]) : from;
    // only the switch's own VLANs: a range up to 4094 is not walked id by id
    for (const id of known) if (id >= from && id <= to) out.add(id);
  }
  return [...out].sort((a, b) => a - b);
}

const ALL_IDS = 4094;

/**
 * The configured allowed list of a trunk as printed ("ALL", "NONE", "1,12,31-36"), every
 * id it names whether the switch has that VLAN or not: "all" for ALL (or a list that
 * names every id), null when the text is not a VLAN list.
 */
export function allowedVlanSet(items: readonly string[]): Set<number> | "all" | null {
  if (items.length === 1 && /^all$/i.test(items[0])) return "all";
  if (items.length === 1 && /^none$/i.test(items[0])) return new Set();
  const out = new Set<number>();
  for (const item of items) {
    const m = /^(\d{1,4})(?:-(\d{1,4}))?$/.exec(item);
    if (!m) return null;
    const from = Number(m[1]);
    const to = m[2] ? Number(m[2]) : from;
    if (from < 1 || to > ALL_IDS || from > to) return null;
    for (let id = from; id <= to; id++) out.add(id);
  }
  return out.size === ALL_IDS ? "all" : out;
}
