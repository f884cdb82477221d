/**
 * `show vlan brief` (and the first table of `show vlan`): VLAN id, name, status and the
 * access ports in it, with the port list wrapped onto indented lines. The columns come
 * from the dashed line under the header; a row that does not fit them is read by shape.
 */
import { textLines } from "./text-lines";

export interface VlanRow {
  id: number;
  name: string;
  /** "active", "act/lshut", "suspended", "sus/lshut", "act/unsup" ... */
  status: string;
  /** access ports as printed (short names); trunks are not listed by IOS */
  ports: string[];
}

const HEADER = /^VLAN\s+Name\s+Status\s+Ports/;
const ROW_BY_SHAPE =
  /^(\d+)\s+(.*?)\s+(active|suspended|act\/lshut|sus\/lshut|act\/ishut|sus\/ishut|act\/unsup)(?:\s+(.*))?$/;

function portList(text: string): string[] {
  return text
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}

export function parseVlanBrief(text: string): VlanRow[] {
  const lines = textLines(text);
  const rows: VlanRow[] = [];
  let inTable = false;
  let columns: number[] | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (HEADER.test(line)) {
      inTable = true;
      const dashes = lines[i + 1] ?? "";
      columns = /^-+( -+){3}/.test(dashes) ? [...dashes.matchAll(/-+/g)].map((m) => m.index ?? 0) : null;
      if (columns) i++;
      continue;
    }
    if (!inTable) continue;
    // the table ends at the first blank line (show vlan goes on with other tables)
    if (line.trim() === "") {
      if (rows.length > 0) inTable = false;
      continue;
    }
    if (/^\s/.test(line)) {
      if (rows.length > 0) rows[rows.length - 1].ports.push(...portList(line));
      continue;
    }
    const row = byColumns(line, columns) ?? byShape(line);
    if (row) rows.push(row);
  }
  return rows;
}

function byColumns(line: string, columns: number[] | null): VlanRow | null {
  if (!columns || columns.length < 4) return null;
  const [, nameAt, statusAt, portsAt] = columns;
  const id = line.slice(0, nameAt).trim();
  // the cut points must fall on blanks, or the row does not follow the columns
  if (!/^\d+$/.test(id) || line[nameAt - 1] !== " " || (line.length > statusAt && line[statusAt - 1] !== " "))
    return null;
  const status = line.slice(statusAt, portsAt).trim();
  if (!/^[a-z]+(\/[a-z]+)?$/.test(status)) return null;
  return { id: Number(id), name: line.slice(nameAt, statusAt).trim(), status, ports: portList(line.slice(portsAt)) };
}

function byShape(line: string): VlanRow | null {
  const m = ROW_BY_SHAPE.exec(line);
  return m ? { id: Number(m[1]), name: m[2], status: m[3], ports: portList(m[4] ?? "") } : null;
}
