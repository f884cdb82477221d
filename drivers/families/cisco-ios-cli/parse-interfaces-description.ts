/**
 * `show interfaces description`: every interface (SVIs and loopbacks too) with its
 * admin/line state and protocol state and the description, blanks inside kept.
 */
import { INTERFACE_TOKEN, textLines } from "./text-lines";

export interface DescriptionRow {
  interface: string;
  /** "up", "down", "admin down", "deleted", "reset" ... */
  status: string;
  /** "up", "down" ... */
  protocol: string;
  description: string;
}

const ROW = /^(\S+)\s+(admin down|admin-down|[\w-]+)\s+([\w-]+)(?:\s+(.*))?$/;

export function parseInterfacesDescription(text: string): DescriptionRow[] {
  const rows: DescriptionRow[] = [];
  for (const line of textLines(text)) {
    if (/^Interface\s+Status\s+Protocol/.test(line)) continue;
    const m = ROW.exec(line);
    if (!m || !INTERFACE_TOKEN.test(m[1])) continue;
    rows.push({ interface: m[1], status: m[2].replace("-", " "), protocol: m[3], description: (m[4] ?? "").trim() });
  }
  return rows;
}
