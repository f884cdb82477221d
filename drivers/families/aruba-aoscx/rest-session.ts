/**
 * One AOS-CX REST session: the API version chosen from what the switch offers (`GET
 * /rest`, the newest version this driver knows), a login whose session cookie (and CSRF
 * token) goes with every later request, and a logout bounded in time. AOS-CX allows only a
 * few sessions per user (3 to 6 by firmware, 48 per switch) and keeps a session that was
 * not logged out for 20 idle minutes, so whoever opens a session must log it out, also
 * after an error or a timeout (the driver does, in close()).
 *
 * Statuses as the AOS-CX guides give them: 200/201/204 success, 400 a bad body, 401 no
 * session (or, at login, wrong credentials or too many sessions), 403 no permission, 404
 * no such resource (or writes while REST is read-only), 503 the switch is limiting
 * requests. Error bodies are the switch's own words, kept short in messages.
 */
import { DeviceOutcomeUnknown, DeviceRefused, DeviceUnreachable, NotSupported } from "../../../model/failures";
import type { HttpsAnswer, HttpsClient } from "../../https/client";

/** The REST versions this driver speaks: dictionaries for collections (v10.04 on), PATCH from v10.09. */
export const KNOWN_VERSIONS = [
  "v10.04",
  "v10.08",
  "v10.09",
  "v10.10",
  "v10.11",
  "v10.12",
  "v10.13",
  "v10.14",
  "v10.15",
  "v10.16",
] as const;

/** the first version whose writes may be PATCHes (the 10.06 guide: "PATCH ... not supported") */
const FIRST_PATCH_VERSION = [10, 9];

/** A logout is bounded by this even when the target allows requests longer. */
export const LOGOUT_TIMEOUT_MS = 3000;

function versionNumbers(v: string): number[] | null {
  const m = /^v(\d+)(?:\.(\d+))?$/.exec(v);
  return m ? [Number(m[1]), Number(m[2] ?? 0)] : null;
}

function compareVersions(a: number[], b: number[]): number {
  return a[0] - b[0] || a[1] - b[1];
}

/**
 * The newest version both the switch (the answer of GET /rest: an object keyed by version,
 * each entry with `version` and `prefix`, and `latest`) and this driver know.
 */
export function chooseVersion(offered: unknown, where: string): string {
  if (!offered || typeof offered !== "object" || Array.isArray(offered))
    throw new DeviceRefused(`${where} answered GET /rest with something other than its list of REST API versions`);
  const versions = new Set<string>();
  for (const [key, entry] of Object.entries(offered as Record<string, unknown>)) {
    if (versionNumbers(key)) versions.add(key);
    const v = entry && typeof entry === "object" ? (entry as Record<string, unknown>).version : undefined;
    if (typeof v === "string" && versionNumbers(v)) versions.add(v);
  }
  const known = [...versions]
    .filter((v) => (KNOWN_VERSIONS as readonly string[]).includes(v))
    .sort((a, b) => compareVersions(versionNumbers(a)!, versionNumbers(b)!));
  if (known.length === 0)
    throw new NotSupported(
      `${where} offers REST API versions ${[...versions].sort().join(", ") || "(none)"}; this driver speaks ${KNOWN_VERSIONS[0]} to ${KNOWN_VERSIONS[KNOWN_VERSIONS.length - 1]}`,
    );
  return known[known.length - 1];
}

/** the device's words of an error answer, on one line and short */
export function wordsOf(answer: HttpsAnswer): string {
  const words = answer.text().replace(/\s+/g, " ").trim();
  return words.length > 300 ? `${words.slice(0, 300)}...` : words || "(no text)";
}

function parseJson(answer: HttpsAnswer, what: string, where: string): unknown {
  try {
    return JSON.parse(answer.text());
  } catch {
    throw new DeviceRefused(`${where} answered ${what} with something that is not JSON`);
  }
}

export class RestSession {
  private constructor(
    private readonly client: HttpsClient,
    readonly version: string,
    private readonly cookie: string,
    private readonly csrf: string | null,
    private readonly where: string,
  ) {}

  /** `/rest/v10.16` */
  get prefix(): string {
    return `/rest/${this.version}`;
  }

  /** writes are PATCHes (partial); before v10.09 a read of the writable set and a PUT */
  get canPatch(): boolean {
    return compareVersions(versionNumbers(this.version)!, FIRST_PATCH_VERSION) >= 0;
  }

  /** Chooses the version and logs in. */
  static async open(client: HttpsClient, username: string, password: string): Promise<RestSession> {
    const where = client.where;
    const list = await client.request({ method: "GET", path: "/rest", headers: { accept: "application/json" } });
    if (list.status !== 200)
      throw new DeviceRefused(`${where} answered GET /rest with HTTP ${list.status}: ${wordsOf(list)}`);
    const version = chooseVersion(parseJson(list, "GET /rest", where), where);
    const login = await client.request({
      method: "POST",
      path: `/rest/${version}/login`,
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        accept: "*/*",
        "x-use-csrf-token": "true",
      },
      body: new URLSearchParams({ username, password }).toString(),
    });
    if (login.status === 401)
      throw new DeviceRefused(
        `${where} refused the REST login of user "${username}" (HTTP 401: ${wordsOf(login)}): the username or password is wrong, ` +
          "or the user already holds as many REST sessions as the switch allows (AOS-CX: 3 to 6 per user, 48 in all; " +
          "a session ends at its logout or after 20 idle minutes)",
      );
    if (login.status === 268)
      throw new DeviceRefused(
        `${where} is zeroized (login answered 268): set its admin password before using its REST API`,
      );
    if (login.status !== 200 && login.status !== 204)
      throw new DeviceRefused(`${where} refused the REST login (HTTP ${login.status}: ${wordsOf(login)})`);
    const setCookie = login.headers["set-cookie"] ?? [];
    const cookie = setCookie
      .map((c) => c.split(";")[0].trim())
      .filter((c) => c.includes("="))
      .join("; ");
    if (!cookie) throw new DeviceRefused(`${where} accepted the REST login but set no session cookie`);
    const token = login.headers["x-csrf-token"];
    return new RestSession(client, version, cookie, typeof token === "string" ? token : null, where);
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      cookie: this.cookie,
      accept: "application/json",
      ...(this.csrf ? { "x-csrf-token": this.csrf } : {}),
      ...extra,
    };
  }

  /**
   * GET `<prefix>/<path>` with a query; the parsed JSON, or null when the resource does
   * not exist (404). Other statuses are failures.
   */
  async get(path: string, query: Record<string, string> = {}): Promise<unknown> {
    const q = new URLSearchParams(query).toString().replace(/%2C/g, ",");
    const full = `${this.prefix}/${path}${q ? `?${q}` : ""}`;
    const answer = await this.client.request({ method: "GET", path: full, headers: this.headers() });
    if (answer.status === 404) return null;
    if (answer.status !== 200) throw this.failure(answer, `GET ${this.prefix}/${path}`);
    return parseJson(answer, `GET ${this.prefix}/${path}`, this.where);
  }

  /**
   * A write (PATCH, PUT, POST, DELETE) of `<prefix>/<path>`. A request that got no answer
   * may have been applied: DeviceOutcomeUnknown. A refusal is DeviceRefused with the
   * switch's words.
   */
  async send(
    method: "PATCH" | "PUT" | "POST" | "DELETE",
    path: string,
    body?: unknown,
    opts: { timeoutMs?: number } = {},
  ): Promise<HttpsAnswer> {
    const what = `${method} ${this.prefix}/${path.split("?")[0]}`;
    let answer: HttpsAnswer;
    try {
      answer = await this.client.request({
        method,
        path: `${this.prefix}/${path}`,
        headers: this.headers(body === undefined ? {} : { "content-type": "application/json" }),
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
      });
    } catch (e) {
      if (e instanceof DeviceUnreachable)
        throw new DeviceOutcomeUnknown(
          `${what} was sent to ${this.where} and no answer came (${e.message}); the change may or may not have been made`,
        );
      throw e;
    }
    if (answer.status < 200 || answer.status > 299) throw this.failure(answer, what);
    return answer;
  }

  private failure(answer: HttpsAnswer, what: string): Error {
    const words = wordsOf(answer);
    if (answer.status === 503)
      return new DeviceUnreachable(`${this.where} is limiting REST requests (HTTP 503 to ${what}): ${words}`);
    if (answer.status === 401)
      return new DeviceRefused(`${this.where} no longer knows the REST session (HTTP 401 to ${what}): ${words}`);
    return new DeviceRefused(`${this.where} refused ${what} (HTTP ${answer.status}): ${words}`);
  }

  /** POST logout; bounded by LOGOUT_TIMEOUT_MS; true when the switch confirmed it. */
  async logout(timeoutMs = LOGOUT_TIMEOUT_MS): Promise<boolean> {
    const answer = await this.client.request({
      method: "POST",
      path: `${this.prefix}/logout`,
      headers: this.headers(),
      timeoutMs,
    });
    return answer.status === 200 || answer.status === 204;
  }
}
