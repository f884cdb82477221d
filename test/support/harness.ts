/**
 * Starts the real service (real HTTP on 127.0.0.1, a real database of the project's
 * dialect) and gives tests a client whose every answer is checked against the spec's
 * response schema: a mismatch fails the test that saw it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { loadConfig, type Config } from "../../app/config";
import { buildServices, closeServices } from "../../app/startup";
import { createApp } from "../../server/app";
import type { Services } from "../../handlers/context";
import { loadContract, type Contract } from "../../server/contract";
import { hashPassword } from "../../app/passwords";
import { createTestDatabase, type TestDatabase } from "./db";
import { checkResponse } from "./contract-check";
import type { ProfilePatch } from "../../db/users";
import type { components } from "../../generated/api";

/**
 * A response body as JSON.parse gives it (the text when the answer is not JSON): untyped,
 * like any HTTP client's body. Every answer is checked against the spec's schema
 * (checkResponse), and a test's assertions on the fields are its type check (the lint
 * config turns the no-unsafe-* rules off in test/ for this).
 */
export type JsonBody = ReturnType<typeof JSON.parse>;

/** The spec's schemas (generated/api.ts), for a test that names the shape it reads: Schemas["LogEntry"]. */
export type Schemas = components["schemas"];

export interface ApiResponse<T = JsonBody> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  json?: unknown;
  form?: Record<string, string | string[]>;
  raw?: { body: string; contentType?: string };
  headers?: Record<string, string>;
  /** a web UI session (from webLogin): its cookie, and its CSRF token on unsafe methods */
  session?: WebSession;
  /** do not follow redirects (default) */
  redirect?: "manual" | "follow";
}

export interface WebSession {
  cookie: string;
  csrf: string;
}

export interface TestApp {
  url: string;
  services: Services;
  contract: Contract;
  request<T = JsonBody>(method: string, path: string, opts?: RequestOptions): Promise<ApiResponse<T>>;
  /** creates a user directly in the store; returns its id */
  createUser(
    username: string,
    password: string,
    extra?: { is_superuser?: boolean; is_staff?: boolean; is_active?: boolean; profile?: ProfilePatch },
  ): Promise<number>;
  /** a token through the public endpoint */
  login(username: string, password: string): Promise<string>;
  /** a web UI session through /login/ (throws unless the login page redirects) */
  webLogin(username: string, password: string): Promise<WebSession>;
  close(): Promise<void>;
}

export interface AppOptions {
  /** where the JSON log goes (default stdout, at LOG_LEVEL or warn) */
  logDestination?: { write(line: string): void };
}

export async function startTestApp(overrides: Partial<Config> = {}, options: AppOptions = {}): Promise<TestApp> {
  // a copy of the run's migrated template (test/support/db-template.ts): start-up finds
  // nothing left to migrate
  const db: TestDatabase = await createTestDatabase({ migrated: true });
  const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchdesk-key-"));
  const config: Config = {
    // the failed-login wait is 0 in tests (env-*.js) unless a test sets loginDelayStepMs
    ...loadConfig({ LOG_LEVEL: process.env.LOG_LEVEL || "warn", LOGIN_DELAY_STEP_MS: process.env.LOGIN_DELAY_STEP_MS }),
    databaseUrl: db.url,
    port: 0,
    secretKeyFile: path.join(keyDir, "secret.key"),
    demo: "off",
    ...overrides,
  };
  const contract = await loadContract();
  const served = await serve(await buildServices(config, options), contract);
  const { services, url } = served;

  async function request<T>(method: string, p: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { accept: "application/json", ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Token ${opts.token}`;
    if (opts.session) {
      headers.cookie = `sessionid=${opts.session.cookie}; csrftoken=${opts.session.csrf}`;
      if (!["GET", "HEAD", "OPTIONS"].includes(method.toUpperCase())) headers["x-csrftoken"] = opts.session.csrf;
    }
    let body: string | undefined;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers["content-type"] = "application/json";
    } else if (opts.form) {
      const f = new URLSearchParams();
      for (const [k, v] of Object.entries(opts.form)) for (const x of Array.isArray(v) ? v : [v]) f.append(k, x);
      body = f.toString();
      headers["content-type"] = "application/x-www-form-urlencoded";
    } else if (opts.raw) {
      body = opts.raw.body;
      if (opts.raw.contentType) headers["content-type"] = opts.raw.contentType;
    }
    const res = await fetch(url + p, { method, headers, body, redirect: opts.redirect ?? "manual" });
    const text = await res.text();
    const json = (res.headers.get("content-type") ?? "").includes("application/json");
    const parsed: T = json ? (text ? JSON.parse(text) : undefined) : text;
    const out: ApiResponse<T> = { status: res.status, headers: res.headers, body: parsed, text };
    checkResponse(contract, method, p, out);
    return out;
  }

  return {
    url,
    services,
    contract,
    request,
    async createUser(username, password, extra = {}) {
      const u = await services.repos.users.create(
        {
          username,
          password: await hashPassword(password),
          is_superuser: extra.is_superuser ?? false,
          is_staff: extra.is_staff ?? false,
          is_active: extra.is_active ?? true,
        },
        extra.profile ?? {},
      );
      return u.id;
    },
    async login(username, password) {
      const r = await request<Schemas["TokenCreated"]>("POST", "/api/users/token/", {
        json: { username, password },
      });
      if (r.status !== 200) throw new Error(`login of ${username} failed: ${r.status} ${r.text}`);
      return r.body.token;
    },
    async webLogin(username, password) {
      const page = await fetch(`${url}/login/`);
      const csrf = /csrftoken=([0-9a-f]+)/.exec(page.headers.get("set-cookie") ?? "")![1];
      const r = await fetch(`${url}/login/`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: `csrftoken=${csrf}` },
        body: new URLSearchParams({ username, password, csrfmiddlewaretoken: csrf }).toString(),
      });
      if (r.status !== 302) throw new Error(`web login of ${username} failed: ${r.status}`);
      const cookies = r.headers.getSetCookie();
      const value = (name: string) =>
        decodeURIComponent(/^[^=]+=([^;]*)/.exec(cookies.find((c) => c.startsWith(`${name}=`))!)![1]);
      return { cookie: value("sessionid"), csrf: value("csrftoken") };
    },
    async close() {
      await served.close();
      await db.drop();
      fs.rmSync(keyDir, { recursive: true, force: true });
    },
  };
}

export interface AppWithRoot {
  app: TestApp;
  /** the token of a superuser "root" (password pw-root-1) */
  root: string;
  rootId: number;
}

/** A test app with a superuser "root" logged in: where most API test files start. */
export async function startAppWithRoot(
  overrides: Partial<Config> = {},
  options: AppOptions = {},
): Promise<AppWithRoot> {
  const app = await startTestApp(overrides, options);
  const rootId = await app.createUser("root", "pw-root-1", { is_superuser: true });
  return { app, rootId, root: await app.login("root", "pw-root-1") };
}

export interface AppWithRoles extends AppWithRoot {
  /** tokens of a staff user "staffer" and a regular user "plain" */
  staff: string;
  regular: string;
}

/** A test app with the three kinds of caller most permission tests need. */
export async function startAppWithRoles(overrides: Partial<Config> = {}): Promise<AppWithRoles> {
  const withRoot = await startAppWithRoot(overrides);
  const { app } = withRoot;
  await app.createUser("staffer", "pw-staff-1", { is_staff: true });
  await app.createUser("plain", "pw-plain-1");
  return {
    ...withRoot,
    staff: await app.login("staffer", "pw-staff-1"),
    regular: await app.login("plain", "pw-plain-1"),
  };
}

/**
 * A client for one admin resource that checks every answer for the secrets the test
 * gave (they are write-only: no answer may contain them).
 */
export function secretCheckingClient(app: () => TestApp, token: () => string, base: string) {
  const secretsSeen: string[] = [];
  const call = async (method: string, path: string, opts: RequestOptions = {}) => {
    const r = await app().request(method, path, { token: token(), ...opts });
    for (const s of secretsSeen) expect(r.text).not.toContain(s);
    return r;
  };
  return {
    secretsSeen,
    call,
    count: async () => (await call("GET", base)).body.length as number,
  };
}

/** A service answering HTTP on 127.0.0.1 (a port of its own), and its end: the server, then the service's parts. */
interface Served {
  url: string;
  services: Services;
  close(): Promise<void>;
}

async function serve(services: Services, contract: Contract): Promise<Served> {
  const server: Server = await new Promise((resolve) => {
    const s = createApp(services, contract).listen(0, "127.0.0.1", () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    services,
    async close() {
      await new Promise<void>((r) => server.close(() => r()));
      await closeServices(services);
    },
  };
}

/** A second service on a test app's database, as another instance (process) of a scale-out would be. */
export async function secondInstance(app: TestApp): Promise<Served> {
  return serve(await buildServices(app.services.config), app.contract);
}
