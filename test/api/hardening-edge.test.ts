/**
 * Hardening at the HTTP edge: 413/415/400 answers that are the path's own error (JSON on
 * the API, a page on /login/ and /logout/), tell nothing internal and keep the keep-alive
 * connection (and other clients) working; absolute URLs never taken from a forged Host;
 * security headers on every answer; links in pages only to this site.
 */
import http from "node:http";
import type { Socket } from "node:net";
import { startAppWithRoot, startTestApp, type TestApp } from "../support/harness";
import { describeDb } from "../support/db";
import { CONTENT_SECURITY_POLICY } from "../../server/security-headers";
import { addDevice, addGroup, startLab } from "../support/lab-inventory";
import type { LabSwitch } from "../../lab";

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  socket: Socket;
}

interface SendOptions {
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** the body written in these pieces (no Content-Length: chunked) */
  pieces?: Buffer[];
  /** send only the pieces and leave the body unfinished (the server must answer anyway) */
  unfinished?: boolean;
}

/** One request over `agent` (keep-alive, one socket), reporting the socket it used. */
function send(
  app: TestApp,
  agent: http.Agent,
  method: string,
  path: string,
  opts: SendOptions = {},
): Promise<RawAnswer> {
  const url = new URL(path, app.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method, agent, headers: opts.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            text: Buffer.concat(chunks).toString("utf8"),
            socket: req.socket!,
          }),
        );
      },
    );
    for (const piece of opts.pieces ?? []) req.write(piece);
    if (opts.unfinished) {
      req.on("error", () => undefined); // the server stopped reading: the rest cannot be sent
      setTimeout(() => req.destroy(), 2000).unref();
      return;
    }
    req.on("error", reject);
    req.end(opts.body);
  });
}

/** a keep-alive agent with one socket for `fn`, destroyed afterwards */
async function oneSocket(fn: (agent: http.Agent) => Promise<void>): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    await fn(agent);
  } finally {
    agent.destroy();
  }
}

const leaksNothing = (text: string) => {
  expect(text).not.toMatch(/\bat .+\(.+:\d+:\d+\)/); // a stack frame
  expect(text).not.toMatch(/node_modules|\/server\/|\/app\/|\.ts:\d+|\.js:\d+/);
};

describeDb("errors at the edge keep the connection", () => {
  let app: TestApp;
  let root: string;
  const limit = 64 * 1024;
  beforeAll(async () => {
    ({ app, root } = await startAppWithRoot({ maxBodyBytes: limit }));
  });
  afterAll(async () => app?.close());

  it("a JSON body over the limit is a 413 with reason and code, and the same socket answers the next request", async () => {
    await oneSocket(async (agent) => {
      const big = JSON.stringify({ name: "x".repeat(limit * 2) });
      const r = await send(app, agent, "POST", "/api/admin/switchgroups/", {
        headers: {
          authorization: `Token ${root}`,
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(big)),
        },
        body: big,
      });
      expect(r.status).toBe(413);
      expect(JSON.parse(r.text)).toEqual({
        reason: `Request body is larger than ${limit} bytes`,
        code: "payload_too_large",
      });
      expect(r.headers.connection).not.toBe("close");
      leaksNothing(r.text);

      const next = await send(app, agent, "GET", "/api/", { headers: { authorization: `Token ${root}` } });
      expect(next.status).toBe(200);
      expect(next.socket).toBe(r.socket);
    });
  });

  it("a body sent in chunks without a length, over the limit, is a 413 and the connection stays", async () => {
    await oneSocket(async (agent) => {
      const first = await send(app, agent, "POST", "/api/admin/switchgroups/", {
        headers: { authorization: `Token ${root}`, "content-type": "application/json" },
        pieces: Array.from({ length: 20 }, () => Buffer.alloc(16 * 1024, 0x20)),
        body: "{}",
      });
      expect(first.status).toBe(413);
      const next = await send(app, agent, "GET", "/api/", { headers: { authorization: `Token ${root}` } });
      expect(next.status).toBe(200);
      expect(next.socket).toBe(first.socket);
    });
  });

  it("other clients are answered while a large body is being refused", async () => {
    await oneSocket(async (agent) => {
      const big = Buffer.alloc(limit * 4, 0x61);
      const [large, ...others] = await Promise.all([
        send(app, agent, "POST", "/api/users/token/", {
          headers: { "content-type": "application/json", "content-length": String(big.length) },
          body: big,
        }),
        ...Array.from({ length: 5 }, () => app.request("GET", "/api/", { token: root })),
      ]);
      expect(large.status).toBe(413);
      for (const o of others) expect(o.status).toBe(200);
    });
  });

  it("a far larger declared body is refused at once and the answer says the connection closes", async () => {
    await oneSocket(async (agent) => {
      const r = await send(app, agent, "POST", "/api/users/token/", {
        headers: { "content-type": "application/json", "content-length": String(1024 * 1024 * 1024) },
        pieces: [Buffer.alloc(1024, 0x20)],
        unfinished: true,
      });
      expect(r.status).toBe(413);
      expect(r.headers.connection).toBe("close");
      expect(JSON.parse(r.text).code).toBe("payload_too_large");
    });
  });

  it("a malformed JSON body is a 400 without internals, and the connection stays", async () => {
    await oneSocket(async (agent) => {
      const r = await send(app, agent, "POST", "/api/users/token/", {
        headers: { "content-type": "application/json" },
        body: '{"username": ',
      });
      expect(r.status).toBe(400);
      expect(JSON.parse(r.text).code).toBe("malformed_body");
      leaksNothing(r.text);
      const next = await send(app, agent, "GET", "/api/", { headers: { authorization: `Token ${root}` } });
      expect(next.status).toBe(200);
      expect(next.socket).toBe(r.socket);
    });
  });

  it("the login page answers a form over its limit with a 413 page, and the connection stays", async () => {
    await oneSocket(async (agent) => {
      const body = `username=root&password=${"p".repeat(64 * 1024)}`;
      const r = await send(app, agent, "POST", "/login/", {
        headers: { "content-type": "application/x-www-form-urlencoded", "content-length": String(body.length) },
        body,
      });
      expect(r.status).toBe(413);
      expect(r.headers["content-type"]).toMatch(/^text\/html/);
      expect(r.text).toContain("Request body is larger than");
      leaksNothing(r.text);
      const page = await send(app, agent, "GET", "/login/");
      expect(page.status).toBe(200);
      expect(page.socket).toBe(r.socket);
    });
  });

  it("the login and logout pages answer an unsupported Content-Type with a 415 page", async () => {
    for (const path of ["/login/", "/logout/"]) {
      const r = await app.request("POST", path, {
        raw: { body: "<x/>", contentType: "application/xml" },
        headers: { accept: "text/html" },
      });
      expect(r.status).toBe(415);
      expect(r.headers.get("content-type")).toMatch(/^text\/html/);
      expect(r.text).toContain("Unsupported Content-Type &#39;application/xml&#39;");
      leaksNothing(r.text);
    }
  });
});

describeDb("absolute URLs come from the configuration or a trusted proxy only", () => {
  const menuUrls = async (app: TestApp, token: string, headers: Record<string, string>) => {
    const r = await app.request("GET", "/api/", { token, headers });
    expect(r.status).toBe(200);
    return JSON.stringify(r.body);
  };

  it("a forged Host header does not appear in the answers", async () => {
    const { app, root } = await startAppWithRoot();
    try {
      const text = await menuUrls(app, root, { host: "evil.example:8000" });
      expect(text).not.toContain("evil.example");
      expect(text).toContain(app.url);
    } finally {
      await app.close();
    }
  });

  it("BASE_URL is used for every absolute URL", async () => {
    const { app, root } = await startAppWithRoot({ baseUrl: "https://switchdesk.example.net" });
    try {
      const text = await menuUrls(app, root, { host: "evil.example" });
      expect(text).toContain("https://switchdesk.example.net/api/");
      expect(text).not.toContain("evil.example");
      expect(text).not.toContain(app.url);
    } finally {
      await app.close();
    }
  });

  it("behind a trusted proxy its forwarded scheme and host are used, and a malformed one is not", async () => {
    const { app, root } = await startAppWithRoot({ trustedProxies: ["127.0.0.1"] });
    try {
      expect(
        await menuUrls(app, root, { "x-forwarded-proto": "https", "x-forwarded-host": "sd.example.org" }),
      ).toContain("https://sd.example.org/api/");
      const odd = await menuUrls(app, root, {
        "x-forwarded-proto": "https",
        "x-forwarded-host": "sd.example.org/@evil.example",
      });
      expect(odd).not.toContain("evil.example");
    } finally {
      await app.close();
    }
  });
});

describeDb("security headers on every answer", () => {
  let app: TestApp;
  let root: string;
  beforeAll(async () => {
    ({ app, root } = await startAppWithRoot());
  });
  afterAll(async () => app?.close());

  const expectHeaders = (h: Headers, cache: string) => {
    expect(h.get("content-security-policy")).toBe(CONTENT_SECURITY_POLICY);
    expect(h.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(h.get("x-content-type-options")).toBe("nosniff");
    expect(h.get("x-frame-options")).toBe("DENY");
    expect(h.get("referrer-policy")).toBe("same-origin");
    expect(h.get("cache-control")).toBe(cache);
  };

  it("on JSON answers, authenticated or not, errors included", async () => {
    expectHeaders((await app.request("GET", "/api/", { token: root })).headers, "no-store");
    expectHeaders((await app.request("GET", "/api/switches/", { token: root })).headers, "no-store");
    expectHeaders((await app.request("GET", "/api/")).headers, "no-store");
    expectHeaders((await app.request("GET", "/api/nothing-here/", { token: root })).headers, "no-store");
    expectHeaders(
      (await app.request("POST", "/api/users/token/", { json: { username: "root", password: "pw-root-1" } })).headers,
      "no-store",
    );
  });

  it("on web pages, and the pages' own script and style are served from this site", async () => {
    expectHeaders((await app.request("GET", "/login/", { headers: { accept: "text/html" } })).headers, "no-store");
    const session = await app.webLogin("root", "pw-root-1");
    const page = await app.request("GET", "/api/", { session, headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    expectHeaders(page.headers, "no-store");
    expect(page.text).not.toMatch(/<script>|<style>|style="/);
    expect(page.text).toContain('<script src="/assets/forms.js"></script>');
    for (const asset of ["/assets/forms.js", "/assets/site.css"]) {
      const a = await app.request("GET", asset);
      expect(a.status).toBe(200);
      expect(a.headers.get("x-content-type-options")).toBe("nosniff");
      expect(a.headers.get("cache-control")).toBe("public, max-age=3600");
    }
    expect((await app.request("GET", "/assets/nothing.js")).status).toBe(404);
  });
});

describeDb("links in pages point only to this site", () => {
  it("a description holding a look-alike of this site's URL is shown as text, not as a link", async () => {
    const app = await startTestApp();
    try {
      await app.createUser("root", "pw-root-1", { is_superuser: true });
      const session = await app.webLogin("root", "pw-root-1");
      const tricks = [`${app.url}.evil.example/x`, `${app.url}@evil.example/x`, `${app.url}//evil.example/x`];
      const group = await app.services.repos.inventory.create("switch_groups", {
        name: "tricks",
        description: tricks.join(" "),
        display_name: tricks[0],
        comments: tricks[2],
        read_only: 0,
        allow_poe_toggle: 0,
        edit_if_descr: 1,
        allow_all_vlans: 0,
      });
      const page = await app.request("GET", `/api/admin/switchgroups/${group.id}/`, {
        session,
        headers: { accept: "text/html" },
      });
      expect(page.status).toBe(200);
      const hrefs = [...page.text.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);
      for (const h of hrefs) {
        expect(h.startsWith("/") && !h.startsWith("//")).toBe(true);
        expect(h).not.toContain("evil");
      }
    } finally {
      await app.close();
    }
  });
});

describeDb("input at the edge: refused with a 400 before anything reaches the device", () => {
  let app: TestApp;
  let root: string;
  let lab: LabSwitch;
  let gid: number;
  let sid: number;
  beforeAll(async () => {
    ({ app, root } = await startAppWithRoot());
    lab = await startLab({ profile: "generic", ports: 12, name: "lab-edge-12", seed: 4 });
    gid = await addGroup(app, { name: "Edge" });
    sid = await addDevice(app, { name: "edge-12", lab, groups: [gid] });
  }, 60000);
  afterAll(async () => {
    await lab?.stop();
    await app?.close();
  });

  const ifUrl = (id: string | number, what: string) => `/api/switches/${gid}/${sid}/interface/${id}/${what}/`;
  /** the call's answer, and how many SETs the lab saw during it */
  const post = async (path: string, json: Record<string, unknown>) => {
    const sets = lab.counters.byType.set;
    const r = await app.request("POST", path, { token: root, json });
    return { r, sets: lab.counters.byType.set - sets };
  };

  it("a description of 64 characters but 70 bytes of UTF-8 is a 400 naming the byte limit, not a device error", async () => {
    const text = "é".repeat(6) + "d".repeat(58);
    expect(text.length).toBe(64);
    const { r, sets } = await post(ifUrl(lab.model.port(1).ifIndex, "description"), { description: text });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      reason: "Description is too long for the device (max 64 bytes of UTF-8, this one has 70)",
      code: "invalid_parameter",
    });
    expect(sets).toBe(0);
  });

  it.each([
    ["a lone surrogate", "desk \ud800 3"],
    ["a right-to-left override", "desk \u202e3 ksed"],
    ["a left-to-right isolate", "desk \u2066x\u2069"],
    ["a line break", "desk\r\nshutdown"],
  ])("a description with %s is refused and the port keeps its description", async (_what, text) => {
    const port = lab.model.port(2);
    const before = lab.model.alias(port.ifIndex);
    const { r, sets } = await post(ifUrl(port.ifIndex, "description"), { description: text });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("invalid_parameter");
    expect(r.body.reason).toMatch(/^Description may not contain/);
    expect(sets).toBe(0);
    expect(lab.model.alias(port.ifIndex)).toBe(before);
  });

  it("a VLAN name with a bidirectional override or a lone surrogate is refused", async () => {
    for (const name of ["staff\u202e", "\udc00staff"]) {
      const { r, sets } = await post(`/api/switches/${gid}/${sid}/vlan/add/`, { vlan_id: 321, vlan_name: name });
      expect(r.status).toBe(400);
      expect(r.body.reason).toMatch(/^Vlan name may not contain/);
      expect(sets).toBe(0);
    }
  });

  it("an interface id with leading zeros is not another port", async () => {
    const port = lab.model.port(3);
    for (const id of [`0${port.ifIndex}`, `00${port.ifIndex}`, `+${port.ifIndex}`, `${port.ifIndex}.0`]) {
      const { r, sets } = await post(ifUrl(encodeURIComponent(id), "state"), { state: "off" });
      expect([400, 404]).toContain(r.status);
      expect(r.body.code).toMatch(/not_found|invalid_parameter/);
      expect(sets).toBe(0);
    }
    expect(lab.model.adminUp(port.ifIndex)).toBe(true);
  });
});
