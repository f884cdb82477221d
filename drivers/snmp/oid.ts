/**
 * OID arithmetic and the names of the objects in mib/oids.ts, so that errors can say
 * "ifAlias.5" instead of "1.3.6.1.2.1.31.1.1.1.18.5".
 */
import * as oids from "../../mib/oids";

/** true when `oid` lies strictly below `base` (base itself is not inside). */
export function isUnder(oid: string, base: string): boolean {
  return oid.length > base.length && oid.startsWith(base) && oid.charCodeAt(base.length) === 46; // "."
}

/** The instance part of `oid` below the column `base` ("1.3.6...1.2.5" -> "5"). */
export function indexOf(oid: string, base: string): string {
  return oid.slice(base.length + 1);
}

let namesByOid: Map<string, string> | null = null;

function knownNames(): Map<string, string> {
  if (namesByOid) return namesByOid;
  const names = new Map<string, string>();
  const visit = (value: unknown, key: string) => {
    if (typeof value === "string" && /^\d+(\.\d+)+$/.test(value)) names.set(value, key);
    else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) visit(v, k);
  };
  // enterprise prefixes are not objects: "prefix.9.6.1" would name nothing
  for (const [k, v] of Object.entries(oids)) if (k !== "enterprises") visit(v, k);
  namesByOid = names;
  return names;
}

/** "ifAlias.5" for a known column or scalar plus instance, else the numeric OID. */
export function oidName(oid: string): string {
  const names = knownNames();
  // walk up the arcs until a known object is found; the rest is the instance
  let cut = oid.length;
  while (cut > 0) {
    const base = oid.slice(0, cut);
    const name = names.get(base);
    if (name) return cut === oid.length ? name : `${name}${oid.slice(cut)}`;
    cut = oid.lastIndexOf(".", cut - 1);
  }
  return oid;
}
