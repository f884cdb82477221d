/** `show ip interface brief`: which interfaces carry an IPv4 address (routed interfaces). */
import { INTERFACE_TOKEN, textLines } from "./text-lines";

export interface IpBriefRow {
  interface: string;
  /** "unassigned" when none */
  address: string;
  status: string;
  protocol: string;
}

const ROW = /^(\S+)\s+(\S+)\s+(YES|NO)\s+\S+\s+(administratively down|[\w-]+)\s+(\S+)$/;

export function parseIpInterfaceBrief(text: string): IpBriefRow[] {
  const rows: IpBriefRow[] = [];
  for (const line of textLines(text)) {
    const m = ROW.exec(line);
    if (m && INTERFACE_TOKEN.test(m[1])) rows.push({ interface: m[1], address: m[2], status: m[4], protocol: m[5] });
  }
  return rows;
}
