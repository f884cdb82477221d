import fs from "node:fs";
import path from "node:path";

/**
 * Third-party SNMP recordings live beside the project (never inside it). Tests that use
 * them skip when the folder is absent. SWITCHDESK_FIXTURES overrides the location.
 */
export const fixturesDir = process.env.SWITCHDESK_FIXTURES ?? path.resolve(__dirname, "../../../shared/fixtures");

export function snmprecPath(name: string): string | null {
  const file = path.join(fixturesDir, "snmprec", `${name}.snmprec`);
  return fs.existsSync(file) ? file : null;
}
