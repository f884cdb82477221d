/** OIDs as arrays of sub-identifiers for the lab agent: printing and prefixes; parsing and order from mib/oid-arcs.ts. */

import type { Oid } from "../../mib/oid-arcs";

// parsing and the walk order are the drivers' too: one definition, in mib/
export { compareOids, parseOid, type Oid } from "../../mib/oid-arcs";

export function formatOid(oid: Oid): string {
  return oid.join(".");
}

export function isPrefixOf(prefix: Oid, oid: Oid): boolean {
  if (prefix.length > oid.length) return false;
  for (let i = 0; i < prefix.length; i++) if (prefix[i] !== oid[i]) return false;
  return true;
}
