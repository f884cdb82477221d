/**
 * The menu kept per inventory version (issue 22, app/menu-cache.ts): the same answer as
 * the menu built anew, byte for byte; a change made through another instance on the same
 * database is in the next menu at once; and a bounded number of statements per call
 * whatever the number of groups and devices: 2 SELECTs (the token with its user and groups,
 * the inventory's version) when nothing changed, 6 when something did (and the groups,
 * devices, members and VLAN lists are read again), no write.
 */
import { secondInstance, startAppWithRoot, type TestApp } from "../support/harness";
import { describeDb } from "../support/db";
import { menuView } from "../../domain/views";
import { switchRow } from "../../db/inventory";

type Menu = { groups: Record<string, { name: string; members: Record<string, { name: string }> }> };

describeDb("the menu kept per inventory version", () => {
  let app: TestApp;
  let root: string;
  let other: Awaited<ReturnType<typeof secondInstance>>;

  beforeAll(async () => {
    ({ app, root } = await startAppWithRoot());
    other = await secondInstance(app);
  }, 60000);
  afterAll(async () => {
    await other?.close();
    await app?.close();
  });

  const admin = (method: string, path: string, json?: unknown) => app.request(method, path, { token: root, json });

  /** the menu as the other instance answers it */
  async function menuThere(token: string): Promise<{ text: string; body: Menu; type: string | null }> {
    const r = await fetch(`${other.url}/api/switches/`, { headers: { authorization: `Token ${token}` } });
    expect(r.status).toBe(200);
    const text = await r.text();
    return { text, body: JSON.parse(text) as Menu, type: r.headers.get("content-type") };
  }
  /** group name -> member names, in the order of the answer's text (JSON.parse sorts integer-like keys) */
  async function seenThere(token: string): Promise<[string, string[]][]> {
    const { text, body } = await menuThere(token);
    // a group's key and a member's key are each followed by its object, which starts with its name
    const inText = (id: string, name: string) => text.indexOf(`"${id}":{"name":${JSON.stringify(name)}`);
    const inOrder = <T extends { name: string }>(record: Record<string, T>) =>
      Object.entries(record)
        .sort(([a, x], [b, y]) => inText(a, x.name) - inText(b, y.name))
        .map(([, v]) => v);
    return inOrder(body.groups).map((g) => [g.name, inOrder(g.members).map((m) => m.name)]);
  }

  it("a change through one instance is in the other instance's next menu", async () => {
    const bravo = (await admin("POST", "/api/admin/switches/switchgroups/", { name: "Bravo" })).body.id as number;
    const sw = (await admin("POST", "/api/admin/switches/", { name: "sw-b1", switchgroups: [bravo] })).body
      .id as number;
    expect(await seenThere(root)).toEqual([["Bravo", ["sw-b1"]]]);
    // kept: asked again, the same text, sent as JSON
    const first = await menuThere(root);
    const again = await menuThere(root);
    expect(again.text).toBe(first.text);
    expect(again.type).toBe("application/json; charset=utf-8");
    const head = await fetch(`${other.url}/api/switches/`, {
      method: "HEAD",
      headers: { authorization: `Token ${root}` },
    });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get("content-length"))).toBe(Buffer.byteLength(again.text));
    expect(await head.text()).toBe("");

    expect((await admin("PATCH", `/api/admin/switches/${sw}/`, { name: "sw-renamed" })).status).toBe(200);
    expect(await seenThere(root)).toEqual([["Bravo", ["sw-renamed"]]]);

    // a group named before Bravo, with a higher id: first in the answer's text
    const alpha = (await admin("POST", "/api/admin/switches/switchgroups/", { name: "Alpha" })).body.id as number;
    expect(alpha).toBeGreaterThan(bravo);
    const sw2 = (await admin("POST", "/api/admin/switches/", { name: "sw-a1", switchgroups: [alpha, bravo] })).body
      .id as number;
    expect(await seenThere(root)).toEqual([
      ["Alpha", ["sw-a1"]],
      ["Bravo", ["sw-a1", "sw-renamed"]],
    ]);

    expect((await admin("PATCH", `/api/admin/switches/${sw}/`, { status: 0 })).status).toBe(200);
    expect(await seenThere(root)).toEqual([
      ["Alpha", ["sw-a1"]],
      ["Bravo", ["sw-a1"]],
    ]);
    expect((await admin("DELETE", `/api/admin/switches/${sw2}/`)).status).toBe(204);
    // Alpha has no device left; Bravo still has its inactive one, so it stays, empty
    expect(await seenThere(root)).toEqual([["Bravo", []]]);

    // a user's groups changed on one instance: its menu on the other one follows
    expect((await admin("PATCH", `/api/admin/switches/${sw}/`, { status: 1 })).status).toBe(200);
    const user = await app.createUser("plain", "pw-plain-1");
    const token = await app.login("plain", "pw-plain-1");
    expect(await seenThere(token)).toEqual([]);
    await admin("PATCH", `/api/admin/users/${user}/`, { switchgroups: [bravo] });
    expect(await seenThere(token)).toEqual([["Bravo", ["sw-renamed"]]]);
    expect(await seenThere(root)).toEqual([["Bravo", ["sw-renamed"]]]);
  }, 30000);

  it("answers byte for byte what the menu built anew answers", async () => {
    const { text } = await menuThere(root);
    const found = await other.services.repos.tokens.findWithUser(root);
    const caller = { user: found!.user, token: found!.token, session: null };
    const built = menuView(caller, await other.services.devices.menu(caller), other.url);
    expect(text).toBe(JSON.stringify(built));
  });

  it("the browsable page of a web session shows the same menu, indented, groups in name order", async () => {
    // Zulu's id is lower than Yankee's, its name later
    for (const name of ["Zulu", "Yankee"]) {
      const g = (await admin("POST", "/api/admin/switches/switchgroups/", { name })).body.id as number;
      await admin("POST", "/api/admin/switches/", { name: `sw-${name}`, switchgroups: [g] });
    }
    await app.createUser("browser", "pw-browser-1", { is_superuser: true });
    const session = await app.webLogin("browser", "pw-browser-1");
    const page = await app.request("GET", "/api/switches/", { session, headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    const { text } = await menuThere(root);
    const groups = (JSON.parse(text) as Menu).groups;
    const order = Object.keys(groups).sort((a, b) => text.indexOf(`"${a}":{"name"`) - text.indexOf(`"${b}":{"name"`));
    const html = page.text;
    const at = order.map((id) => html.indexOf(`&quot;${id}&quot;: {`));
    expect(order.length).toBeGreaterThanOrEqual(2);
    expect(order.map((id) => groups[id].name).slice(-2)).toEqual(["Yankee", "Zulu"]);
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
  });

  /** the statements one menu call sends through `app` (usage counters written beforehand) */
  async function cost(token: string): Promise<{ reads: number; writes: number }> {
    await app.services.usage.flush();
    const tally = app.services.store.statements;
    const before = { ...tally };
    const r = await app.request("GET", "/api/switches/", { token });
    expect(r.status).toBe(200);
    return { reads: tally.reads - before.reads, writes: tally.writes - before.writes };
  }

  it("sends 2 SELECTs while the inventory is unchanged and 6 after a change, for a few groups or 30 more", async () => {
    const before = Object.keys((await menuThere(root)).body.groups).length;
    await cost(root);
    expect(await cost(root)).toEqual({ reads: 2, writes: 0 });
    await admin("POST", "/api/admin/switches/switchgroups/", { name: "Empty" });
    expect(await cost(root)).toEqual({ reads: 6, writes: 0 });
    expect(await cost(root)).toEqual({ reads: 2, writes: 0 });

    const inv = app.services.repos.inventory;
    await inv.writeAll(async (w) => {
      for (let g = 0; g < 30; g++) {
        const id = await w.create("switch_groups", {
          name: `many-${g}`,
          description: "",
          display_name: "",
          comments: "",
          read_only: 0,
          allow_poe_toggle: 0,
          edit_if_descr: 1,
          allow_all_vlans: 0,
        });
        for (let d = 0; d < 5; d++)
          await w.create("switches", switchRow({ name: `many-${g}-${d}` }), [{ relation: "groups", ids: [id] }]);
      }
    });
    expect(await cost(root)).toEqual({ reads: 6, writes: 0 });
    expect(await cost(root)).toEqual({ reads: 2, writes: 0 });
    const { body } = await menuThere(root);
    expect(Object.keys(body.groups)).toHaveLength(before + 30);
  }, 30000);
});
