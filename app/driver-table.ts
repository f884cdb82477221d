/**
 * The registered drivers as a Markdown table: `switchdesk drivers` prints it and the
 * README carries it (a test keeps the two the same), so the table cannot drift from the
 * registry. What a driver can change comes from its capability flags; what it was proven
 * against from its registry entry, which the conformance suite holds to its subjects.
 */
import { CAPABILITY_FLAGS } from "../model/capabilities";
import { listDrivers, type DriverDescription } from "../drivers/registry";

const TRANSPORTS: Record<DriverDescription["connector"], string> = {
  0: "SNMP v2c, v3",
  1: "AOS-CX REST (HTTPS)",
  2: "Junos NETCONF (SSH)",
  3: "Arista eAPI (HTTPS)",
  7: "SSH command line",
};

/** the lab face each connector's drivers are proven on */
const FACES: Record<DriverDescription["connector"], string> = {
  0: "SNMP face",
  1: "AOS-CX REST face",
  2: "NETCONF face",
  3: "eAPI face",
  7: "SSH face",
};

function picks(d: DriverDescription): string {
  if (d.matches === null) return "named only";
  if (d.matches.includes("")) return "any sysObjectID no other driver claims";
  const prefixes = d.matches.map((m) => `\`${m}\``).join(", ");
  return d.sysDescr ? `${prefixes} with a sysDescr matching ${d.sysDescr.map((s) => `\`${s}\``).join(", ")}` : prefixes;
}

function proof(d: DriverDescription): string {
  const p = d.provenAgainst;
  const face = FACES[d.connector];
  return [
    ...(p.lab?.length ? [`lab ${face} (profile ${p.lab.join(", ")})`] : []),
    ...(p.recordings?.length ? [`recordings ${p.recordings.join(", ")}`] : []),
    ...(p.real ?? []),
    ...(p.notes ?? []),
  ].join("; ");
}

/** one row per registered driver, in registry order */
export function driverTable(): string {
  const rows = listDrivers().map((d) => {
    const changes = d.changes.map((flag) => CAPABILITY_FLAGS[flag].label).join(", ");
    return `| \`${d.name}\` | ${d.vendor} | ${TRANSPORTS[d.connector]} (connector ${d.connector}) | ${picks(d)} | ${changes || "nothing"}${d.clientData ? "; details view" : ""} | ${proof(d)} |`;
  });
  return [
    '| Driver | Vendor | Transport | "auto" picks it for | Can change | Proven against |',
    "|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}
