/** `show ip arp`: IPv4 address and MAC address pairs. */
import { textLines } from "./text-lines";

export interface ArpRow {
  ip: string;
  /** as printed: 0050.5600.0001 */
  mac: string;
  interface: string;
}

const ROW = /^Internet\s+(\d+\.\d+\.\d+\.\d+)\s+\S+\s+([0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4})\s+\S+\s*(\S*)/i;

export function parseIpArp(text: string): ArpRow[] {
  const rows: ArpRow[] = [];
  for (const line of textLines(text)) {
    const m = ROW.exec(line);
    if (m) rows.push({ ip: m[1], mac: m[2].toLowerCase(), interface: m[3] });
  }
  return rows;
}
