/** `switchdesk inventory import FILE.yaml`: checked as a whole, applied in one go, idempotent. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import YAML from "yaml";
import { startAppWithRoot, type TestApp, type Schemas } from "../support/harness";
import { describeDb } from "../support/db";
import {
  InventoryFileError,
  formatReport,
  importInventory,
  parseInventoryYaml,
  type ImportReport,
} from "../../app/inventory-import";
import { main } from "../../server/cli";

const EXAMPLE = path.resolve(__dirname, "../../examples/inventory.yaml");

describeDb("inventory import", () => {
  let app: TestApp;
  let root: string;
  let aliceId: number;
  let tmp: string;
  const example = () => YAML.parse(fs.readFileSync(EXAMPLE, "utf8"));

  beforeAll(async () => {
    ({ app, root } = await startAppWithRoot());
    aliceId = await app.createUser("alice", "pw-alice-1");
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "switchdesk-import-"));
  });
  afterAll(async () => {
    fs.rmSync(tmp, { recursive: true, force: true });
    await app?.close();
  });

  const get = async (p: string) => (await app.request("GET", p, { token: root })).body;
  const byName = async (p: string, name: string) => (await get(p)).find((x: { name: string }) => x.name === name);
  const counts = (r: ImportReport) =>
    Object.fromEntries(
      Object.entries(r).map(([k, v]) => [k, [v.created.length, v.updated.length, v.unchanged.length]]),
    );
  const rowsOf = (table: "snmp_profiles" | "credentials" | "switches" | "switch_groups") =>
    app.services.store.db.selectFrom(table).selectAll().orderBy("id").execute();

  let untouched: Schemas["AdminSwitch"];

  it("leaves objects that are not in the file alone (set up one first)", async () => {
    const r = await app.request("POST", "/api/admin/switches/", {
      token: root,
      json: { name: "api-made", description: "made by hand", primary_ipv4: "198.51.100.1" },
    });
    expect(r.status).toBe(201);
    untouched = r.body;
  });

  it("imports the example: everything created, references resolved, secrets encrypted", async () => {
    const report = await importInventory(app.services, example());
    expect(counts(report)).toEqual({
      snmp_profiles: [2, 0, 0],
      credentials: [1, 0, 0],
      groups: [2, 0, 0],
      switches: [4, 0, 0],
    });
    expect(report.switches.created).toEqual(["sw-1", "sw-2", "core-1", "cli-1"]);

    const lab = await byName("/api/admin/snmpprofiles/", "lab-v2");
    const core = await byName("/api/admin/snmpprofiles/", "core-v3");
    // the file's switchdesk names, as the admin API shows them (OpenL2M's names and numbers)
    expect(core).toMatchObject({
      version: 3,
      username: "switchdesk",
      auth_protocol: 4,
      priv_protocol: 5,
      passphrase_set: true,
      priv_passphrase_set: true,
    });
    const ssh = await byName("/api/admin/credentials/", "lab-ssh");
    const access = await byName("/api/admin/switchgroups/", "Access");
    const coreGroup = await byName("/api/admin/switchgroups/", "Core");
    expect(access).toMatchObject({
      vlans: [10, 20, 30],
      users: [aliceId],
      allow_poe_toggle: true,
      allow_all_vlans: false,
      display_name: "Access switches",
    });
    expect(coreGroup).toMatchObject({ allow_all_vlans: true, read_only: true, users: [] });

    const sw1 = await byName("/api/admin/switches/", "sw-1");
    expect(sw1).toMatchObject({
      hostname: "sw-1.example.org",
      primary_ip4: "192.0.2.10",
      snmp_profile: lab.id,
      driver: "auto",
      switchgroups: [access.id],
      status: 1,
    });
    const core1 = await byName("/api/admin/switches/", "core-1");
    expect(core1.snmp_profile).toBe(core.id);
    expect(core1.switchgroups).toEqual([access.id, coreGroup.id].sort((a, b) => a - b));
    const cli = await byName("/api/admin/switches/", "cli-1");
    expect(cli).toMatchObject({
      connector_type: 7,
      netmiko_profile: ssh.id,
      snmp_profile: null,
      status: 0,
      switchgroups: [coreGroup.id],
    });
    expect((await byName("/api/admin/switches/", "sw-2")).primary_ip6).toBe("2001:db8::11");
    // alice now sees her group
    expect((await get(`/api/admin/users/${aliceId}/`)).switchgroups).toEqual([access.id]);

    const profileRows = await rowsOf("snmp_profiles");
    const labRow = profileRows.find((r) => r.name === "lab-v2")!;
    expect(labRow.community_enc).not.toContain("change-me-community");
    expect(app.services.secrets.decrypt(labRow.community_enc!)).toBe("change-me-community");
    const coreRow = profileRows.find((r) => r.name === "core-v3")!;
    expect(app.services.secrets.decrypt(coreRow.priv_key_enc!)).toBe("change-me-priv-key");
    const sshRow = (await rowsOf("credentials"))[0];
    expect(app.services.secrets.decrypt(sshRow.password_enc!)).toBe("change-me-ssh-password");

    expect(await byName("/api/admin/switches/", "api-made")).toEqual(untouched);
  });

  it("a second run of the same file changes nothing, not even the stored ciphertexts", async () => {
    const before = {
      p: await rowsOf("snmp_profiles"),
      c: await rowsOf("credentials"),
      s: await rowsOf("switches"),
      g: await rowsOf("switch_groups"),
    };
    const report = await importInventory(app.services, example());
    expect(counts(report)).toEqual({
      snmp_profiles: [0, 0, 2],
      credentials: [0, 0, 1],
      groups: [0, 0, 2],
      switches: [0, 0, 4],
    });
    expect(formatReport(report)).toContain("Nothing changed.");
    expect({
      p: await rowsOf("snmp_profiles"),
      c: await rowsOf("credentials"),
      s: await rowsOf("switches"),
      g: await rowsOf("switch_groups"),
    }).toEqual(before);
  });

  it("a changed field, secret or membership updates just that object and says what changed", async () => {
    const doc = example();
    doc.switches[1].description = "moved to rack B";
    doc.switches[0].groups = ["Core"];
    doc.snmp_profiles[0].community = "a-new-community";
    doc.groups[1].name = "core"; // another case is the same group, renamed
    doc.switches[2].groups = ["core", "Access"];
    doc.switches[3].groups = ["core"];
    const report = await importInventory(app.services, doc);
    expect(report.switches.updated).toEqual([
      { name: "sw-1", fields: ["groups"] },
      { name: "sw-2", fields: ["description"] },
    ]);
    expect(report.snmp_profiles.updated).toEqual([{ name: "lab-v2", fields: ["community"] }]);
    expect(report.groups.updated).toEqual([{ name: "core", fields: ["name"] }]);
    expect(counts(report)).toEqual({
      snmp_profiles: [0, 1, 1],
      credentials: [0, 0, 1],
      groups: [0, 1, 1],
      switches: [0, 2, 2],
    });
    const text = formatReport(report);
    expect(text).toContain("Switches: 0 created, 2 updated, 2 unchanged");
    expect(text).toContain("updated: sw-2 (description)");
    expect(text).not.toContain("a-new-community");

    const coreGroup = await byName("/api/admin/switchgroups/", "core");
    expect((await byName("/api/admin/switches/", "sw-1")).switchgroups).toEqual([coreGroup.id]);
    expect((await byName("/api/admin/switches/", "sw-2")).description).toBe("moved to rack B");
    const labRow = (await rowsOf("snmp_profiles")).find((r) => r.name === "lab-v2")!;
    expect(app.services.secrets.decrypt(labRow.community_enc!)).toBe("a-new-community");
    // and that state is stable again
    expect(counts(await importInventory(app.services, doc))).toEqual({
      snmp_profiles: [0, 0, 2],
      credentials: [0, 0, 1],
      groups: [0, 0, 2],
      switches: [0, 0, 4],
    });
  });

  it("a bad file reports every problem with its place and applies nothing", async () => {
    const before = { p: await rowsOf("snmp_profiles"), s: await rowsOf("switches"), g: await rowsOf("switch_groups") };
    const doc = {
      snmp_profiles: [
        { name: "fresh-v2", community: "fresh-c" }, // valid, but must not be created
        { name: "weak-v3", version: 3, username: "u", auth_protocol: "SHA", auth_key: "short" },
        { name: "FRESH-V2", community: "again" },
      ],
      groups: [{ name: "Lab", users: ["alice", "mallory"], vlans: [10, 5000], colour: "red" }],
      switches: [
        { name: "ok-1", snmp_profile: "fresh-v2", groups: ["Lab"] },
        { name: "bad-ip", primary_ipv4: "192.0.2.256" },
        { name: "bad-ref", snmp_profile: "x", credentials_profile: "nope", groups: ["Access", "Nowhere"] },
        { hostname: "nameless" },
        "just text",
      ],
      routers: [],
    };
    let err: unknown;
    await importInventory(app.services, doc).catch((e) => (err = e));
    expect(err).toBeInstanceOf(InventoryFileError);
    expect((err as InventoryFileError).problems).toEqual([
      "routers: unknown section (expected snmp_profiles, credentials, groups, switches)",
      "snmp_profiles[1].auth_key: an SNMPv3 key must be at least 8 characters",
      "snmp_profiles[2].name: 'FRESH-V2' is already used by snmp_profiles[0]",
      "groups[0].colour: unknown field",
      "groups[0].vlans: '5000' is not a VLAN id (1 to 4094)",
      "groups[0].users: no user named 'mallory'",
      "switches[1].primary_ipv4: not a valid IPv4 address",
      "switches[2].snmp_profile: no SNMP profile named 'x'",
      "switches[2].credentials_profile: no credential profile named 'nope'",
      "switches[2].groups: no group named 'Nowhere'",
      "switches[3].name: required",
      "switches[4]: expected a mapping with at least a name",
    ]);
    expect((err as Error).message).toMatch(/^12 problems, nothing was changed:\n {2}routers: /);
    expect({ p: await rowsOf("snmp_profiles"), s: await rowsOf("switches"), g: await rowsOf("switch_groups") }).toEqual(
      before,
    );
  });

  it("refuses files that are not an inventory at all", async () => {
    for (const [doc, problem] of [
      [null, "the file is empty"],
      [["a"], "the file must be a mapping with the sections snmp_profiles, credentials, groups, switches"],
      [{ switches: { name: "x" } }, "switches: expected a list"],
    ] as const) {
      await expect(importInventory(app.services, doc)).rejects.toMatchObject({ problems: [problem] });
    }
    expect(() => parseInventoryYaml("switches:\n  - name: a\n   bad: indent\n")).toThrow(/YAML: .*line 3/);
  });

  it("runs from the command line against the configured database", async () => {
    const saved = { ...process.env };
    const log = jest.spyOn(console, "log").mockImplementation(() => {});
    try {
      process.env.DATABASE_URL = app.services.config.databaseUrl;
      process.env.SWITCHDESK_SECRET_KEY_FILE = app.services.config.secretKeyFile;
      delete process.env.SWITCHDESK_SECRET_KEY;
      const file = path.join(tmp, "more.yaml");
      fs.writeFileSync(
        file,
        "snmp_profiles:\n  - {name: cli-v2, community: cli-community}\nswitches:\n  - {name: cli-made, primary_ipv4: 192.0.2.99, snmp_profile: cli-v2, groups: [Access]}\n",
      );
      expect(await main(["inventory", "import", file])).toBe(0);
      const printed = log.mock.calls.map((c) => String(c[0])).join("\n");
      expect(printed).toContain("SNMP profiles: 1 created, 0 updated, 0 unchanged");
      expect(printed).toContain("created: cli-made");
      const sw = await byName("/api/admin/switches/", "cli-made");
      const prof = await byName("/api/admin/snmpprofiles/", "cli-v2");
      expect(sw.snmp_profile).toBe(prof.id);
      // the service reads back what the command encrypted: same key
      const row = (await rowsOf("snmp_profiles")).find((r) => r.name === "cli-v2")!;
      expect(app.services.secrets.decrypt(row.community_enc!)).toBe("cli-community");

      fs.writeFileSync(file, "switches:\n  - {name: cli-made, snmp_profile: gone}\n");
      await expect(main(["inventory", "import", file])).rejects.toThrow(
        `${file}: 1 problem, nothing was changed:\n  switches[0].snmp_profile: no SNMP profile named 'gone'`,
      );
      await expect(main(["inventory", "import", path.join(tmp, "missing.yaml")])).rejects.toThrow("no such file");
    } finally {
      log.mockRestore();
      process.env = saved;
    }
  });
});
