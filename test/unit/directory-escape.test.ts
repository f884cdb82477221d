/** RFC 4515 filter values, RFC 4514 DN values, and DN comparison. */
import { FilterParser, type AndFilter, type EqualityFilter } from "ldapts";
import { escapeDnValue, escapeFilterValue, fillTemplate, normalizeDn, parseDn } from "../../app/directory/escape";

describe("escapeFilterValue (RFC 4515)", () => {
  it.each([
    ["alice", "alice"],
    ["*", "\\2a"],
    ["admin)(|(uid=*", "admin\\29\\28|\\28uid=\\2a"],
    ["a\\2a", "a\\5c2a"],
    ["a\u0000b", "a\\00b"],
    ["line\nbreak\t", "line\\0abreak\\09"],
    ["del\u007f", "del\\7f"],
    ["Zoë Ångström", "Zoë Ångström"],
    ["", ""],
  ])("%j -> %j", (input, escaped) => {
    expect(escapeFilterValue(input)).toBe(escaped);
  });

  it.each(["*", "al*ce", "admin)(|(uid=*", "x)(objectClass=*", "a\\2a", "a\u0000", "(", ")", "\\", "\\\\2a", "é*(x)"])(
    "keeps %j a single equality assertion with that exact value",
    (name) => {
      const f = FilterParser.parseString(fillTemplate("(uid={username})", { username: name }, escapeFilterValue));
      expect(f.constructor.name).toBe("EqualityFilter");
      expect((f as EqualityFilter).attribute).toBe("uid");
      expect((f as EqualityFilter).value).toBe(name);
    },
  );

  it("stays inside a compound configured filter", () => {
    const filter = fillTemplate(
      "(&(objectClass=person)(sAMAccountName={username}))",
      { username: "x)(|(cn=*" },
      escapeFilterValue,
    );
    const f = FilterParser.parseString(filter);
    expect(f.constructor.name).toBe("AndFilter");
    expect((f as AndFilter).filters).toHaveLength(2);
    expect(((f as AndFilter).filters[1] as EqualityFilter).value).toBe("x)(|(cn=*");
  });
});

describe("escapeDnValue (RFC 4514)", () => {
  it.each([
    ["alice", "alice"],
    ["smith, j", "smith\\, j"],
    ['a+b"c;d<e>f=g\\h', 'a\\+b\\"c\\;d\\<e\\>f\\=g\\\\h'],
    [" lead", "\\ lead"],
    ["trail ", "trail\\ "],
    ["#hash", "\\#hash"],
    ["mid#dle", "mid#dle"],
    ["nul\u0000", "nul\\00"],
    ["Zoë", "Zoë"],
  ])("%j -> %j", (input, escaped) => {
    expect(escapeDnValue(input)).toBe(escaped);
  });

  it.each([
    "smith, j",
    "x,ou=admins,dc=example,dc=org",
    "a+cn=b",
    " spaced ",
    "#x",
    'q"uote',
    "back\\slash",
    "n\u0000ul",
  ])("keeps %j one attribute value in one RDN", (name) => {
    const dn = fillTemplate("uid={username},ou=people,dc=example,dc=org", { username: name }, escapeDnValue);
    const rdns = parseDn(dn)!;
    expect(rdns).toHaveLength(4);
    expect(rdns[0]).toEqual([{ type: "uid", value: name }]);
  });
});

describe("fillTemplate", () => {
  it("replaces every occurrence and leaves unknown placeholders", () => {
    expect(fillTemplate("(|(a={x})(b={x})(c={y}))", { x: "*" }, escapeFilterValue)).toBe("(|(a=\\2a)(b=\\2a)(c={y}))");
  });
  it("does not re-read placeholders inside a value", () => {
    expect(fillTemplate("(uid={username})", { username: "{username}" }, escapeFilterValue)).toBe("(uid={username})");
  });
});

describe("normalizeDn", () => {
  it("compares case, spacing and escape spellings alike", () => {
    const a = normalizeDn("cn=Net Ops,ou=Groups,dc=example,dc=org");
    expect(normalizeDn("CN=net ops, OU=groups , DC=Example,DC=ORG")).toBe(a);
    expect(normalizeDn("cn=Net\\20Ops,ou=Groups,dc=example,dc=org")).toBe(a);
    expect(normalizeDn("cn=Net Ops,ou=Groups;dc=example,dc=org")).toBe(a);
  });
  it("keeps escaped separators inside values", () => {
    expect(normalizeDn("uid=smith\\, j,ou=people")).toBe("uid=smith\\, j,ou=people");
    expect(normalizeDn("uid=smith\\2C j,ou=people")).toBe("uid=smith\\, j,ou=people");
    expect(normalizeDn("uid=smith\\, j,ou=people")).not.toBe(normalizeDn("uid=smith,uid=j,ou=people"));
  });
  it("orders the parts of a multi-valued RDN", () => {
    expect(normalizeDn("cn=a+uid=b,dc=x")).toBe(normalizeDn("UID=B + CN=A,dc=x"));
  });
  it("keeps insignificant spaces out and significant ones in", () => {
    expect(normalizeDn("cn= a ,dc=x")).toBe("cn=a,dc=x");
    expect(normalizeDn("cn=\\ a\\ ,dc=x")).toBe("cn=\\ a\\ ,dc=x");
  });
  it("returns null for text that is not a DN", () => {
    for (const bad of ["just text", "cn=a,", "=a", "cn=a,,dc=x", "cn=a\\", 'cn="quoted"', "1bad=x"])
      expect({ bad, n: normalizeDn(bad) }).toEqual({ bad, n: null });
  });
  it("gives the empty DN as empty", () => {
    expect(normalizeDn("")).toBe("");
  });
});
