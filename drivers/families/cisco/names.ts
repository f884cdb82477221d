/**
 * The engine names the objects of mib/oids.ts in its messages; Cisco's own objects
 * (mib/cisco.ts) it shows as numbers. Failures of this family's reads and writes are
 * given their MIB names here, so an error says "vmVlan.10105: inconsistentValue".
 */
import * as cisco from "../../../mib/cisco";
import { DeviceError } from "../../../model/failures";

let names: Array<[string, string]> | null = null;

function ciscoNames(): Array<[string, string]> {
  if (names) return names;
  const out: Array<[string, string]> = [];
  for (const group of Object.values(cisco)) {
    if (!group || typeof group !== "object" || Array.isArray(group)) continue;
    for (const [name, oid] of Object.entries(group))
      if (typeof oid === "string" && /^\d+(\.\d+)+$/.test(oid)) out.push([oid, name]);
  }
  // the longest OID first, so a column is not named by a shorter object it starts with
  names = out.sort((a, b) => b[0].length - a[0].length);
  return names;
}

/** "1.3.6.1.4.1.9.9.68.1.2.2.1.2.10105" -> "vmVlan.10105" (whole arcs only) */
export function nameCiscoOids(text: string): string {
  return text.replace(/\b1\.3\.6\.1\.4\.1\.9(?:\.\d+)+/g, (oid) => {
    for (const [base, name] of ciscoNames()) {
      if (oid === base) return name;
      if (oid.startsWith(`${base}.`)) return `${name}${oid.slice(base.length)}`;
    }
    return oid;
  });
}

/** the promise's failure with Cisco objects named in its message */
export async function namedFailure<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof DeviceError) error.message = nameCiscoOids(error.message);
    throw error;
  }
}
