/**
 * What an operator sees: a JSON log line per request with its request id (echoed in
 * X-Request-Id), the spec's path template, operationId, status, user and device round
 * trips; GET /healthz (200, and 503 when the database is gone); GET /metrics in the
 * Prometheus text format, open to the addresses of METRICS_ALLOW only.
 */
import { secondInstance, startAppWithRoot, type TestApp } from "../support/harness";
import { describeDb } from "../support/db";
import { checkResponse } from "../support/contract-check";
import { addDevice, addGroup, startLab } from "../support/lab-inventory";
import type { LabSwitch } from "../../lab";

/** A line of the service's JSON log, with the fields of a request line these tests read. */
interface LogLine {
  reqId?: string;
  deviceRequests?: number;
  deviceRoundTrips?: number;
  durationMs?: number;
  [field: string]: unknown;
}

/** the JSON lines a service wrote */
function logSink() {
  const lines: string[] = [];
  return {
    write: (chunk: string) => void lines.push(...chunk.split("\n").filter(Boolean)),
    entries: () => lines.map((l) => JSON.parse(l) as LogLine),
  };
}

/** one sample of the exposition: its value, or undefined when the series is absent */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(series + " "));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** the answer of an ops path fits the spec (the harness checks only api/ paths) */
function expectSpecShape(path: string, r: { status: number; body: unknown }) {
  const op = app.contract.match(path)!.entry.methods.get("GET")!;
  expect(app.contract.api.validateResponse(r.body, op, r.status).errors ?? []).toEqual([]);
}

let app: TestApp;

describeDb("operations: request log, health, metrics", () => {
  let root: string;
  let lab: LabSwitch;
  let gid: number;
  let sid: number;
  const log = logSink();

  beforeAll(async () => {
    ({ app, root } = await startAppWithRoot({ logLevel: "info" }, { logDestination: log }));
    lab = await startLab({ profile: "generic", ports: 8, name: "lab-ops-8", seed: 4 });
    gid = await addGroup(app, { name: "Ops" });
    sid = await addDevice(app, { name: "ops-8", lab, groups: [gid] });
  }, 60000);
  afterAll(async () => {
    await lab?.stop();
    await app?.close();
  });

  it("echoes a plain X-Request-Id, replaces a strange one, and logs each request under its id", async () => {
    const mine = await app.request("GET", "/api/switches/", {
      token: root,
      headers: { "x-request-id": "deploy-check.42" },
    });
    expect(mine.status).toBe(200);
    expect(mine.headers.get("x-request-id")).toBe("deploy-check.42");
    const odd = await app.request("GET", "/api/switches/", {
      token: root,
      headers: { "x-request-id": "a b <script>" },
    });
    const fresh = odd.headers.get("x-request-id")!;
    expect(fresh).toMatch(/^[0-9a-f-]{36}$/);
    const none = await app.request("GET", "/api/", { token: root });
    expect(none.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(none.headers.get("x-request-id")).not.toBe(fresh);

    const line = log.entries().find((e) => e.reqId === "deploy-check.42")!;
    expect(line).toMatchObject({
      level: "info",
      msg: "request",
      method: "GET",
      path: "/api/switches/",
      operationId: "getMenu",
      status: 200,
      user: "root",
      deviceRequests: 0,
    });
    expect(typeof line.durationMs).toBe("number");
    expect(typeof line.time).toBe("string");
    expect(log.entries().some((e) => e.reqId === fresh && e.operationId === "getMenu")).toBe(true);
  });

  it("logs the path template, not the URL, and no user for an anonymous refusal", async () => {
    const r = await app.request("GET", `/api/switches/search/secret-looking-text/`, { token: root });
    expect(r.status).toBe(404); // nothing found by that name
    const id = r.headers.get("x-request-id");
    const line = log.entries().find((e) => e.reqId === id)!;
    expect(line.path).toBe("/api/switches/search/{text}/");
    expect(JSON.stringify(log.entries())).not.toContain("secret-looking-text");
    const anon = await app.request("GET", "/api/switches/");
    expect(anon.status).toBe(403);
    expect(log.entries().find((e) => e.reqId === anon.headers.get("x-request-id"))).toMatchObject({
      status: 403,
      user: null,
      operationId: "getMenu",
    });
  });

  it("says what a device write cost in round trips, and counts it in the metrics", async () => {
    const p = lab.model.port(2);
    const r = await app.request("POST", `/api/switches/${gid}/${sid}/interface/${p.ifIndex}/description/`, {
      token: root,
      json: { description: "ops test" },
    });
    expect(r.status).toBe(200);
    const line = log.entries().find((e) => e.reqId === r.headers.get("x-request-id"))!;
    expect(line).toMatchObject({
      operationId: "setInterfaceDescription",
      path: "/api/switches/{group}/{switch}/interface/{interface}/description/",
      status: 200,
    });
    expect(line.deviceRequests).toBeGreaterThanOrEqual(2); // read the port, write, read back
    expect(line.deviceRoundTrips).toBeGreaterThanOrEqual(2);
    console.log(
      `description write: ${line.deviceRequests} SNMP requests, ${line.deviceRoundTrips} round trips, ${line.durationMs} ms`,
    );

    const m = await fetch(`${app.url}/metrics`);
    expect(m.status).toBe(200);
    expect(m.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await m.text();
    expect(
      sample(text, `switchdesk_http_requests_total{operation="setInterfaceDescription",method="POST",status="200"}`),
    ).toBe(1);
    expect(
      sample(text, `switchdesk_http_request_duration_seconds_count{operation="setInterfaceDescription",method="POST"}`),
    ).toBe(1);
    expect(sample(text, `switchdesk_device_requests_total{driver="generic"}`)).toBeGreaterThanOrEqual(
      line.deviceRequests!,
    );
    // the write has left the queue of its switch
    expect(sample(text, `switchdesk_device_queue_depth{switch="${sid}"}`)).toBe(0);
  });

  it("counts device failures by code", async () => {
    lab.faults.drop = true;
    try {
      const r = await app.request(
        "POST",
        `/api/switches/${gid}/${sid}/interface/${lab.model.port(3).ifIndex}/description/`,
        { token: root, json: { description: "never" } },
      );
      expect(r.status).toBe(424);
      expect(r.body.code).toBe("device_unreachable");
      const line = log.entries().find((e) => e.reqId === r.headers.get("x-request-id"))!;
      expect(line).toMatchObject({ status: 424, deviceErrors: 1 });
    } finally {
      lab.faults.reset();
    }
    const text = await (await fetch(`${app.url}/metrics`)).text();
    expect(sample(text, `switchdesk_device_errors_total{code="device_unreachable"}`)).toBe(1);
  });

  it("answers /healthz without authentication, with the version", async () => {
    const r = await app.request("GET", "/healthz");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: "ok", database: "ok", version: app.services.version });
    expectSpecShape("/healthz", r);
    // probes and scrapes are logged at debug level only: not at info
    expect(log.entries().some((e) => e.path === "/healthz")).toBe(false);
  });

  it("serves /metrics only to the addresses of METRICS_ALLOW", async () => {
    const other = await startAppWithRoot({ metricsAllow: ["10.0.0.0/8", "192.0.2.7"] });
    try {
      const r = await other.app.request("GET", "/metrics");
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ reason: "Metrics are not served to 127.0.0.1 (METRICS_ALLOW)", code: "forbidden" });
      expect(r.text).not.toContain("switchdesk_http");
      expectSpecShape("/metrics", r);
    } finally {
      await other.app.close();
    }
  });

  it("answers 503 from /healthz when the database is gone", async () => {
    const quiet = logSink();
    const other = await startAppWithRoot({}, { logDestination: quiet });
    const store = other.app.services.store;
    await store.close();
    store.close = async () => undefined; // closed already: the harness's close only drops the database
    try {
      const r = await other.app.request("GET", "/healthz");
      expect(r.status).toBe(503);
      expect(r.body).toEqual({ status: "unavailable", database: "unreachable", version: other.app.services.version });
      expectSpecShape("/healthz", r);
      // a failing probe is an error line, whatever the level for probes otherwise
      expect(quiet.entries().find((e) => e.path === "/healthz")).toMatchObject({ level: "error", status: 503 });
    } finally {
      await other.app.close();
    }
  });

  it("keeps counting a request's device requests when another service in the process ends meanwhile", async () => {
    // each service has its own request scopes: ending a second one (as the tests and the
    // bench do, several services in one process) while this one answers leaves its count whole
    const other = await secondInstance(app);
    const seen = await fetch(`${other.url}/api/switches/${gid}/${sid}/`, {
      headers: { authorization: `Token ${root}` },
    });
    expect(seen.status).toBe(200);
    const text = await seen.text();
    checkResponse(app.contract, "GET", `/api/switches/${gid}/${sid}/`, {
      status: seen.status,
      headers: seen.headers,
      body: JSON.parse(text),
      text,
    });
    lab.faults.latencyMs = 150;
    try {
      const p = lab.model.port(3);
      const pending = app.request("POST", `/api/switches/${gid}/${sid}/interface/${p.ifIndex}/description/`, {
        token: root,
        json: { description: "while another service ends" },
      });
      await new Promise((r) => setTimeout(r, 50));
      await other.close();
      const r = await pending;
      expect(r.status).toBe(200);
      const line = log.entries().find((e) => e.reqId === r.headers.get("x-request-id"))!;
      expect(line.deviceRequests).toBeGreaterThanOrEqual(2);
    } finally {
      lab.faults.reset();
    }
  });
});
