/** `show mac address-table`: VLAN, MAC address (dotted), type and port of each entry. */
import { INTERFACE_TOKEN, textLines } from "./text-lines";

export interface MacRow {
  vlan: number;
  /** as printed: 0050.5600.0001 */
  mac: string;
  type: string;
  port: string;
}

const ROW = /^\s*(\d+)\s+([0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4})\s+(\S+)\s+(\S+)/i;

export function parseMacTable(text: string): MacRow[] {
  const rows: MacRow[] = [];
  for (const line of textLines(text)) {
    const m = ROW.exec(line);
    // CPU and drop entries name no port
    if (m && INTERFACE_TOKEN.test(m[4]))
      rows.push({ vlan: Number(m[1]), mac: m[2].toLowerCase(), type: m[3], port: m[4] });
  }
  return rows;
}
