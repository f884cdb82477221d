/**
 * `show interfaces status`: one row per switch port. The name column is free text cut
 * to 18 characters that may hold anything, keywords included ("funky trunk port"), and
 * rows do not always keep the header's columns; so a row is matched from its known
 * shapes (status word, VLAN, duplex, speed) with the name as whatever comes between,
 * the shortest that lets the rest match. Status may carry a suffix ("notconnect: TDR").
 */
import { textLines } from "./text-lines";

export interface StatusRow {
  port: string;
  name: string;
  status: string;
  /** "10", "trunk", "routed", "unassigned", "pvlan prom", "123,1234", or "" */
  vlan: string;
  duplex: string;
  speed: string;
  type: string;
  /** Fibre Channel rows only ("fc2/1 is up Port mode is NP") */
  fcMode: string;
}

const STATUS =
  "connected|notconnect|notconnec|disabled|err-disabled|err-disable|errdisable|suspended|suspnd|monitoring|inactive|" +
  "sfpAbsent|xcvrAbsent|noXcvr|faulty|linkFlapE|channelDo|noOperMem|down|up";
const VLAN = String.raw`pvlan\s+\S+|\S+`;
const DUPLEX = String.raw`(?:a-)?(?:full|half)|auto|unknown|--`;
const SPEED = String.raw`\S+`;

function rowPattern(status: string): RegExp {
  return new RegExp(
    String.raw`^(\S+)\s+(?:(.*?)\s+)?(${status})(?::(?:\s+[A-Z]+)?)?\s+(${VLAN})\s+(${DUPLEX})\s+(${SPEED})(?:\s+(.*))?$`,
  );
}
const KNOWN_STATUS_ROW = rowPattern(STATUS);
// a status word no list above knows: the fixed columns after it still pin the row down
const ANY_STATUS_ROW = rowPattern(String.raw`[a-z][\w-]*`);
const FC_ROW = /^(\S+) is (up|down)\b\s*(?:Port mode is (\S+)|\((.*)\))?/;
const HEADER = /^Port\s+Name\s+Status\s+Vlan/;

export function parseInterfacesStatus(text: string): StatusRow[] {
  const rows: StatusRow[] = [];
  for (const line of textLines(text)) {
    if (!line.trim() || HEADER.test(line) || /^-+$/.test(line)) continue;
    const fc = FC_ROW.exec(line);
    if (fc) {
      rows.push({
        port: fc[1],
        name: "",
        status: fc[2],
        vlan: "",
        duplex: "",
        speed: "",
        type: fc[4] ?? "",
        fcMode: fc[3] ?? "",
      });
      continue;
    }
    const m = KNOWN_STATUS_ROW.exec(line) ?? ANY_STATUS_ROW.exec(line);
    if (!m) continue;
    rows.push({
      port: m[1],
      name: (m[2] ?? "").trim(),
      status: m[3],
      vlan: m[4].replace(/\s+/g, " "),
      duplex: m[5],
      speed: m[6],
      type: (m[7] ?? "").trim(),
      fcMode: "",
    });
  }
  return rows;
}

/** Mbps from a speed column ("a-1000", "10G", "a-2500", "auto" = unknown = 0). */
export function speedMbps(speed: string): number {
  const m = /^(?:a-)?(\d+(?:\.\d+)?)([GMK]?)$/i.exec(speed.trim());
  if (!m) return 0;
  const n = Number(m[1]);
  const unit = m[2].toUpperCase();
  return Math.round(unit === "G" ? n * 1000 : unit === "K" ? n / 1000 : n);
}

/** "Full" / "Half" / "Unknown" from a duplex column ("a-full", "half", "auto"). */
export function duplexOf(duplex: string): "Full" | "Half" | "Unknown" {
  const d = duplex.trim().toLowerCase().replace(/^a-/, "");
  return d === "full" ? "Full" : d === "half" ? "Half" : "Unknown";
}
