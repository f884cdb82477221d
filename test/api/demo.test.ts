/**
 * The demo lab: on an empty inventory the service starts three lab switches in group
 * Demo (saying so), and the whole API works on them; with a device of one's own it stays off.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startService, type RunningService } from "../../server/start-service";
import { loadConfig, type Config } from "../../app/config";
import { switchRow } from "../../db/inventory";
import { createTestDatabase, describeDb, type TestDatabase } from "../support/db";
import type { JsonBody, Schemas } from "../support/harness";

describeDb("demo lab", () => {
  let db: TestDatabase;
  let keyDir: string;
  let config: Config;
  beforeAll(async () => {
    db = await createTestDatabase();
    keyDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchdesk-demo-"));
    config = {
      ...loadConfig({}),
      databaseUrl: db.url,
      port: 0,
      secretKeyFile: path.join(keyDir, "secret.key"),
      adminPassword: "demo-admin-1",
      demo: "auto",
    };
  });
  afterAll(async () => {
    await db?.drop();
    fs.rmSync(keyDir, { recursive: true, force: true });
  });

  async function call(
    svc: RunningService,
    token: string | null,
    method: string,
    p: string,
    form?: Record<string, string>,
  ) {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Token ${token}`;
    if (form) headers["content-type"] = "application/x-www-form-urlencoded";
    const r = await fetch(svc.url + p, {
      method,
      headers,
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    return { status: r.status, body: (await r.json()) as JsonBody };
  }

  it("starts on an empty inventory, is listed in group Demo, and the API works on it", async () => {
    const lines: string[] = [];
    const svc = await startService(config, (l) => lines.push(l));
    try {
      expect(lines.some((l) => /Demo lab: 3 simulated switches in group 'Demo'/.test(l))).toBe(true);
      const token = (
        await call(svc, null, "POST", "/api/users/token/", { username: "admin", password: "demo-admin-1" })
      ).body.token;
      const menu = await call(svc, token, "GET", "/api/switches/");
      const [gid, group] = Object.entries<Schemas["MenuGroup"]>(menu.body.groups).find(([, g]) => g.name === "Demo")!;
      const members = Object.entries(group.members);
      expect(members.map(([, m]) => m.name).sort()).toEqual(["lab-cbs-48", "lab-generic-24", "lab-generic-8"]);
      const sizes: Record<string, number> = {};
      for (const [sid, m] of members) {
        const basic = await call(svc, token, "GET", `/api/switches/${gid}/${sid}/`);
        expect(basic.status).toBe(200);
        sizes[m.name] = basic.body.interfaces.filter((i: Schemas["Interface"]) =>
          /^(GigabitEthernet|gi)\d/.test(i.name),
        ).length;
        expect(basic.body.switch.save_config).toBe(m.name === "lab-cbs-48");
        expect(basic.body.switch.poe).not.toBe(false);
      }
      expect(sizes).toEqual({ "lab-generic-8": 8, "lab-generic-24": 24, "lab-cbs-48": 48 });
      const [cbsId] = members.find(([, m]) => m.name === "lab-cbs-48")!;
      expect((await call(svc, token, "POST", `/api/switches/${gid}/${cbsId}/save/`, { save: "yes" })).body).toEqual({
        result: "Configuration saved!",
      });
    } finally {
      await svc.stop();
    }
  });

  it("a second start re-points the same lab devices (new ports), no duplicates", async () => {
    const svc = await startService(config, () => {});
    try {
      const rows = await svc.services.repos.inventory.list("switches");
      expect(rows.filter((r) => r.lab === 1)).toHaveLength(3);
      expect((await svc.services.repos.inventory.list("switch_groups")).filter((g) => g.name === "Demo")).toHaveLength(
        1,
      );
    } finally {
      await svc.stop();
    }
  });

  it("stays off once the inventory has a device of its own, and its devices go inactive", async () => {
    const svc0 = await startService({ ...config, demo: "off" }, () => {});
    const profile = (await svc0.services.repos.inventory.list("snmp_profiles"))[0];
    await svc0.services.repos.inventory.create(
      "switches",
      switchRow({ name: "real-one", primary_ipv4: "192.0.2.10", snmp_profile_id: profile.id }),
    );
    await svc0.stop();
    const lines: string[] = [];
    const svc = await startService(config, (l) => lines.push(l));
    try {
      expect(lines.some((l) => l.includes("Demo lab"))).toBe(false);
      const lab = (await svc.services.repos.inventory.list("switches")).filter((r) => r.lab === 1);
      expect(lab.every((r) => r.status === "inactive")).toBe(true);
    } finally {
      await svc.stop();
    }
  });
});
