/**
 * `show lldp neighbors detail`: a block per neighbour, separated by dashed lines.
 * "X - not advertised" lines mean empty; the system description runs over the lines
 * after its label up to a blank line; management addresses are indented under theirs.
 */
import { textLines } from "./text-lines";

export interface LldpRow {
  /** local port as printed; "" when the platform omits it */
  localInterface: string;
  chassisId: string;
  portId: string;
  portDescription: string;
  systemName: string;
  /** the description's lines joined with "\n" */
  systemDescription: string;
  /** "B,R" */
  capabilities: string;
  enabledCapabilities: string;
  managementIpv4: string;
  managementIpv6: string;
}

function emptyRow(): LldpRow {
  return {
    localInterface: "",
    chassisId: "",
    portId: "",
    portDescription: "",
    systemName: "",
    systemDescription: "",
    capabilities: "",
    enabledCapabilities: "",
    managementIpv4: "",
    managementIpv6: "",
  };
}

const FIELD = /^([A-Za-z][A-Za-z ]*?):\s?(.*)$/;

export function parseLldpNeighborsDetail(text: string): LldpRow[] {
  const rows: LldpRow[] = [];
  let row: LldpRow | null = null;
  let section: "description" | "addresses" | null = null;
  const start = () => {
    row = emptyRow();
    rows.push(row);
    return row;
  };
  for (const line of textLines(text)) {
    if (/^-{8,}$/.test(line)) {
      row = null;
      section = null;
      continue;
    }
    if (section === "description") {
      if (line.trim() === "") {
        section = null;
      } else if (row) {
        const r: LldpRow = row;
        r.systemDescription = r.systemDescription ? `${r.systemDescription}\n${line.trim()}` : line.trim();
      }
      continue;
    }
    if (section === "addresses") {
      const addr = /^\s+(IPV6|IP):\s*(\S+)/i.exec(line);
      if (addr && row) {
        const r: LldpRow = row;
        if (addr[1].toUpperCase() === "IP") r.managementIpv4 ||= addr[2];
        else r.managementIpv6 ||= addr[2];
        continue;
      }
      if (/^\s/.test(line)) continue; // OID lines and the like
      section = null;
    }
    const f = FIELD.exec(line);
    if (!f) continue;
    const [, key, value] = f;
    if (key === "Local Intf") {
      // a block without a dashed line before it (or a second Local Intf) starts anew
      const r: LldpRow = row && !(row as LldpRow).localInterface && !(row as LldpRow).chassisId ? row : start();
      r.localInterface = value.trim();
      continue;
    }
    if (key === "Chassis id") {
      const r: LldpRow = row && !(row as LldpRow).chassisId ? row : start();
      r.chassisId = value.trim();
      continue;
    }
    if (!row) continue;
    const r: LldpRow = row;
    switch (key) {
      case "Port id":
        r.portId = value.trim();
        break;
      case "Port Description":
        r.portDescription = value.trim();
        break;
      case "System Name":
        r.systemName = value.trim();
        break;
      case "System Description":
        r.systemDescription = value.trim();
        section = "description";
        break;
      case "System Capabilities":
        r.capabilities = value.trim();
        break;
      case "Enabled Capabilities":
        r.enabledCapabilities = value.trim();
        break;
      case "Management Addresses":
        section = "addresses";
        break;
    }
  }
  return rows;
}
