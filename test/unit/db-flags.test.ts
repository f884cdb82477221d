/**
 * The one conversion of a stored yes/no column (db/flags.ts): every reader turns a row's
 * flag into a boolean through bool(), so a driver that hands over "0" (text) does not
 * make a flag true the way `!!"0"` would; and an admin view built from such a row says
 * false.
 */
import { bit, bool } from "../../db/flags";
import { snmpProfileView } from "../../app/admin/snmp-profiles";
import type { Row } from "../../db/inventory";

describe("stored flags", () => {
  it.each(["0", 0, false, null, undefined, ""])("%p is false", (stored) => {
    expect(bool(stored)).toBe(false);
  });

  it.each(["1", 1, true])("%p is true", (stored) => {
    expect(bool(stored)).toBe(true);
  });

  it("a boolean is stored as 0 or 1 and reads back as itself", () => {
    expect(bit(true)).toBe(1);
    expect(bit(false)).toBe(0);
    expect(bool(bit(true))).toBe(true);
    expect(bool(bit(false))).toBe(false);
  });
});

describe("an admin view of a row whose flag came back as text", () => {
  // what schema.ts types as a number, as some drivers and settings hand it over
  const asStored = (v: unknown): number => v as number;

  const profile = (readOnly: number): Row<"snmp_profiles"> => ({
    id: 4,
    name: "lab",
    description: "",
    version: "2c",
    community_enc: "enc",
    read_only: readOnly,
    username: "",
    auth_protocol: null,
    auth_key_enc: null,
    priv_protocol: null,
    priv_key_enc: null,
    context: "",
    timeout_ms: 2000,
    retries: 1,
  });

  it('read_only "0" answers false, "1" answers true', () => {
    expect(snmpProfileView(profile(asStored("0"))).read_only).toBe(false);
    expect(snmpProfileView(profile(asStored("1"))).read_only).toBe(true);
    expect(snmpProfileView(profile(0)).read_only).toBe(false);
  });
});
