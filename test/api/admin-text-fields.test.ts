/**
 * docs/api-decisions.md section 7: every free-text field of the admin API refuses control
 * characters, bidirectional controls and lone surrogates, with the one check port
 * descriptions use. One table of bad texts against every field, on create and on update,
 * through real HTTP; each refusal is a 400 naming the field, and nothing is stored (the
 * list keeps its length, the object reads back as it was).
 */
import { startTestApp, type TestApp } from "../support/harness";
import { describeDb } from "../support/db";

const WORDS = {
  control: "control characters are not allowed",
  bidi: "bidirectional control characters are not allowed",
  surrogate: "lone surrogates (half of a UTF-16 character pair) are not allowed",
};

/** [what, the bad text, why it is refused, also refused in fields of several lines] */
const BAD: [string, string, keyof typeof WORDS, boolean][] = [
  ["U+202E right-to-left override", "\u202e", "bidi", true],
  ["U+2066 left-to-right isolate", "\u2066", "bidi", true],
  ["U+200F right-to-left mark", "\u200f", "bidi", true],
  ["a lone surrogate", "\ud800", "surrogate", true],
  ["NUL", "\u0000", "control", true],
  ["a line feed", "\n", "control", false],
  ["a tab", "\t", "control", false],
  ["DEL", "\u007f", "control", true],
  ["C1 U+0085", "\u0085", "control", true],
  ["C1 U+009B", "\u009b", "control", true],
];

const PEM = "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n";

interface Field {
  /** the collection under /api/admin/ */
  base: string;
  field: string;
  /** the bad text inside an otherwise valid value */
  value(bad: string): string;
  /** holds several lines: tab and line breaks are fine there */
  lines?: boolean;
  /** a valid create body apart from the field (none: checked on update only) */
  create?(n: number): Record<string, unknown>;
}

const inner = (bad: string) => `text${bad}more`;

const FIELDS: Field[] = [
  // users: creating one hashes its password before the other fields are read, so only the
  // username (read first) is tried on create
  { base: "users", field: "username", value: (b) => `user${b}x`, create: () => ({ password: "pw-new-user-1" }) },
  { base: "users", field: "first_name", value: inner },
  { base: "users", field: "last_name", value: inner },
  { base: "users", field: "email", value: (b) => `a${b}b@example.org` },
  ...["name", "description", "display_name", "comments"].map((field): Field => ({
    base: "switchgroups",
    field,
    value: inner,
    lines: field === "comments",
    create: (n) => ({ name: `group-${n}` }),
  })),
  ...["name", "hostname", "description", "comments", "nms_id"].map((field): Field => ({
    base: "switches",
    field,
    value: field === "hostname" ? (b) => `host${b}.example.org` : inner,
    lines: field === "comments",
    create: (n) => ({ name: `switch-${n}` }),
  })),
  ...["name", "description", "username", "context", "community", "auth_key", "priv_key"].map((field): Field => ({
    base: "snmpprofiles",
    field,
    value: (b) => `longer-${b}-than-eight`,
    create: (n) => ({ name: `snmp-${n}`, version: "2c", community: "public-ro" }),
  })),
  ...["name", "description", "username", "password", "enable_password", "private_key"].map((field): Field => ({
    base: "credentials",
    field,
    value: field === "private_key" ? (b) => PEM.replace("AAAA", `AA${b}AA`) : inner,
    lines: field === "private_key",
    create: (n) => ({ name: `cred-${n}` }),
  })),
];

describeDb("admin text fields: no control characters, bidirectional controls or lone surrogates", () => {
  let app: TestApp;
  let root: string;
  /** one stored object per collection, the target of the updates */
  const target: Record<string, number> = {};
  let serial = 0;

  const call = (method: string, path: string, json?: unknown) => app.request(method, path, { token: root, json });

  beforeAll(async () => {
    app = await startTestApp();
    await app.createUser("root", "pw-root-1", { is_superuser: true });
    root = await app.login("root", "pw-root-1");
    target.users = await app.createUser("plain", "pw-plain-1");
    const made = async (base: string, body: Record<string, unknown>) => {
      const r = await call("POST", `/api/admin/${base}/`, body);
      expect(r.status).toBe(201);
      return r.body.id as number;
    };
    target.switchgroups = await made("switchgroups", { name: "target group", comments: "two\nlines" });
    target.switches = await made("switches", { name: "target-switch", hostname: "sw.example.org" });
    target.snmpprofiles = await made("snmpprofiles", { name: "target snmp", version: "2c", community: "public-ro" });
    target.credentials = await made("credentials", { name: "target cred", username: "admin" });
  });
  afterAll(async () => app?.close());

  it.each(FIELDS.map((f) => [`${f.base} ${f.field}`, f] as const))("%s", async (_label, f) => {
    const list = `/api/admin/${f.base}/`;
    const one = `${list}${target[f.base]}/`;
    const before = (await call("GET", one)).body;
    const count = (await call("GET", list)).body.length;
    for (const [what, bad, why, inLines] of BAD) {
      const value = f.value(bad);
      const expected = {
        status: 400,
        body: { reason: `Invalid value for parameter '${f.field}': ${WORDS[why]}`, code: "invalid_parameter" },
      };
      if (f.lines && !inLines) {
        // a field of several lines takes tabs and line breaks
        const r = await call("PATCH", one, { [f.field]: value });
        expect({ what, status: r.status }).toEqual({ what, status: 200 });
        continue;
      }
      const update = await call("PATCH", one, { [f.field]: value });
      expect({ what, status: update.status, body: update.body }).toEqual({ what, ...expected });
      if (f.create) {
        const create = await call("POST", list, { ...f.create(++serial), [f.field]: value });
        expect({ what, status: create.status, body: create.body }).toEqual({ what, ...expected });
      }
    }
    // nothing stored: no new object, and the target reads back as it was (its secrets' *_set included)
    expect((await call("GET", list)).body.length).toBe(count);
    const after = (await call("GET", one)).body;
    if (f.lines) {
      // the accepted multi-line values changed only this field
      expect({ ...after, [f.field]: undefined, [`${f.field}_set`]: undefined }).toEqual({
        ...before,
        [f.field]: undefined,
        [`${f.field}_set`]: undefined,
      });
      await call("PATCH", one, { [f.field]: f.field === "private_key" ? null : before[f.field] });
    } else {
      expect(after).toEqual(before);
    }
  });

  it("the same texts are refused in a form body", async () => {
    const r = await app.request("PATCH", `/api/admin/switchgroups/${target.switchgroups}/`, {
      token: root,
      form: { description: "a\u202eb" },
    });
    expect({ status: r.status, body: r.body }).toEqual({
      status: 400,
      body: { reason: `Invalid value for parameter 'description': ${WORDS.bidi}`, code: "invalid_parameter" },
    });
  });

  it("ordinary text of any script passes, and is stored as sent", async () => {
    const text = "Zugang – Ölfeld / 東京 / שלום 🖥";
    const r = await call("PATCH", `/api/admin/switchgroups/${target.switchgroups}/`, {
      description: text,
      display_name: text,
    });
    expect(r.status).toBe(200);
    expect((await call("GET", `/api/admin/switchgroups/${target.switchgroups}/`)).body).toMatchObject({
      description: text,
      display_name: text,
    });
    const u = await call("PATCH", `/api/admin/users/${target.users}/`, { first_name: "Zoë", last_name: "Ångström" });
    expect(u.body).toMatchObject({ first_name: "Zoë", last_name: "Ångström" });
  });
});
