/**
 * One directory login over ldapts: find the user (service account search, or a direct
 * bind at a DN built from the name), bind as the user with the given password, read the
 * name, e-mail and group memberships. A connection per login, closed at the end.
 *
 * Three answers: accepted (with the person), rejected (the directory said no), or
 * DirectoryUnavailable (it could not be asked: refused connection, timeout, TLS failure,
 * a service account the directory refuses, any other error). Passwords never appear in
 * what this module returns, throws or logs.
 */
import net from "node:net";
import tls from "node:tls";
import {
  Client,
  InappropriateAuthError,
  InvalidCredentialsError,
  NoSuchObjectError,
  SizeLimitExceededError,
  UnwillingToPerformError,
  type Entry,
} from "ldapts";
import type { DirectoryConfig } from "./config";
import { escapeDnValue, escapeFilterValue, fillTemplate } from "./escape";
import type { DirectoryPerson } from "./mapping";

export class DirectoryUnavailable extends Error {
  constructor(readonly why: string) {
    super(`the directory could not be used: ${why}`);
    this.name = "DirectoryUnavailable";
  }
}

export type DirectoryVerdict =
  | { kind: "accepted"; person: DirectoryPerson }
  /** known: the directory has an entry for the name (search mode only can tell) */
  | { kind: "rejected"; known: boolean; why: string };

/** Removes every given secret from a text, in case a server or library echoes one. */
export function scrub(text: string, secrets: string[]): string {
  let out = text;
  for (const s of secrets) if (s) out = out.split(s).join("[secret]");
  return out;
}

function describeError(e: unknown): string {
  if (e instanceof Error) {
    const code = (e as NodeJS.ErrnoException).code;
    return `${e.name}${code ? ` ${code}` : ""}: ${e.message}`;
  }
  return String(e);
}

/** The user's own bind was refused by the directory (as opposed to the directory failing). */
function isRefusal(e: unknown): boolean {
  return (
    e instanceof InvalidCredentialsError || e instanceof InappropriateAuthError || e instanceof UnwillingToPerformError
  );
}

function firstValue(entry: Entry, attribute: string): string {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === attribute.toLowerCase());
  const v = key ? entry[key] : undefined;
  const one = Array.isArray(v) ? v[0] : v;
  if (one === undefined) return "";
  return Buffer.isBuffer(one) ? one.toString("utf8") : String(one);
}

function allValues(entry: Entry, attribute: string): string[] {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === attribute.toLowerCase());
  const v = key ? entry[key] : undefined;
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).map((x) => (Buffer.isBuffer(x) ? x.toString("utf8") : String(x)));
}

function tlsOptions(cfg: DirectoryConfig, host: string): tls.ConnectionOptions {
  const o: tls.ConnectionOptions = { minVersion: "TLSv1.2", rejectUnauthorized: cfg.tlsVerify };
  if (cfg.ca) o.ca = [cfg.ca];
  if (!cfg.tlsVerify) o.checkServerIdentity = () => undefined;
  // SNI only for names; an address is checked against the certificate's IP entries
  if (net.isIP(host) === 0) o.servername = host;
  return o;
}

/**
 * Runs `fn` on one connection to the directory, closed at the end; every failure to use
 * the directory (no connection, timeout, TLS, an unexpected answer) is DirectoryUnavailable
 * with the given secrets removed from its text.
 */
async function withClient<T>(
  cfg: DirectoryConfig,
  secrets: string[],
  fn: (client: Client, host: string) => Promise<T>,
): Promise<T> {
  const host = new URL(cfg.url).hostname.replace(/^\[|\]$/g, "");
  const sockets: net.Socket[] = [];
  const track = <S extends net.Socket>(s: S): S => {
    sockets.push(s);
    return s;
  };
  const secure = cfg.url.startsWith("ldaps:");
  const client = new Client({
    url: cfg.url,
    timeout: cfg.timeoutMs,
    connectTimeout: cfg.timeoutMs,
    // with ldap:// these must stay unset: ldapts would otherwise speak TLS at once
    tlsOptions: secure ? tlsOptions(cfg, host) : undefined,
    // every socket is kept, so that the deadline below can close it whatever state it is in
    createConnection: (...args: unknown[]) => track((net.connect as (...a: unknown[]) => net.Socket)(...args)),
    createSecureConnection: (...args: unknown[]) => track((tls.connect as (...a: unknown[]) => tls.TLSSocket)(...args)),
  });

  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      for (const s of sockets) s.destroy();
      reject(new DirectoryUnavailable(`no answer within ${cfg.timeoutMs} ms (LDAP_TIMEOUT_MS)`));
    }, cfg.timeoutMs);
  });
  try {
    return await Promise.race([fn(client, host), deadline]);
  } catch (e) {
    if (e instanceof DirectoryUnavailable) throw new DirectoryUnavailable(scrub(e.why, secrets));
    throw new DirectoryUnavailable(scrub(describeError(e), secrets));
  } finally {
    clearTimeout(timer);
    // a polite unbind when the connection is alive; a dead one is only closed
    await Promise.race([client.unbind().catch(() => undefined), new Promise((r) => setTimeout(r, 200).unref())]);
    for (const s of sockets) s.destroy();
  }
}

/**
 * Runs one directory login. Never contacts the directory with an empty password or name
 * (an empty password is an anonymous bind, which most servers accept).
 */
export async function authenticate(
  cfg: DirectoryConfig,
  username: string,
  password: string,
): Promise<DirectoryVerdict> {
  if (password === "") return { kind: "rejected", known: false, why: "empty password (not sent)" };
  if (username === "") return { kind: "rejected", known: false, why: "empty username (not sent)" };
  const secrets = [password, cfg.bind.kind === "search" ? cfg.bind.password.reveal() : ""];
  return withClient(cfg, secrets, (client, host) => converse(client, cfg, host, username, password));
}

/** The attributes read from a user's entry. */
function wantedAttributes(cfg: DirectoryConfig): string[] {
  const a = cfg.attributes;
  const wanted = [a.username, a.firstName, a.lastName, a.email];
  if (cfg.membership.kind === "memberof") wanted.push(cfg.membership.attribute);
  return wanted;
}

/** Binds as the service account; its refusal is a broken setup (and named so), a failed connection is only that. */
async function bindService(client: Client, cfg: DirectoryConfig & { bind: { kind: "search" } }): Promise<void> {
  try {
    await client.bind(cfg.bind.dn, cfg.bind.password.reveal());
  } catch (e) {
    if (isRefusal(e))
      throw new DirectoryUnavailable(`the service account LDAP_BIND_DN was refused (${describeError(e)})`);
    throw e;
  }
}

/**
 * A directory user's entry and groups read again with the service account, at the DN its
 * last login came as: the person, or null when the entry is gone. Throws
 * DirectoryUnavailable when the directory cannot be asked (or there is no service account).
 */
export async function readPerson(cfg: DirectoryConfig, dn: string, username: string): Promise<DirectoryPerson | null> {
  if (cfg.bind.kind !== "search")
    throw new DirectoryUnavailable("no service account (LDAP_BIND_DN) to read entries with");
  const search = cfg as DirectoryConfig & { bind: { kind: "search" } };
  return withClient(cfg, [search.bind.password.reveal()], async (client, host) => {
    if (cfg.startTls) await client.startTLS({ ...tlsOptions(cfg, host), host });
    await bindService(client, search);
    let entry: Entry;
    try {
      const r = await client.search(dn, {
        scope: "base",
        filter: "(objectClass=*)",
        attributes: wantedAttributes(cfg),
      });
      if (r.searchEntries.length !== 1) return null;
      entry = r.searchEntries[0];
    } catch (e) {
      if (e instanceof NoSuchObjectError) return null;
      throw e;
    }
    return personOf(client, cfg, entry, username);
  });
}

/** The person of an entry, its groups from memberOf or a group search (on the client as it is bound). */
async function personOf(
  client: Client,
  cfg: DirectoryConfig,
  entry: Entry,
  username: string,
): Promise<DirectoryPerson> {
  const a = cfg.attributes;
  const names = allValues(entry, a.username);
  // the entry's own spelling of the name (memberUid, for one, compares it exactly)
  const own =
    names.find((n) => n.normalize("NFKC").trim().toLowerCase() === username.normalize("NFKC").trim().toLowerCase()) ??
    names[0] ??
    username;
  let groups: string[];
  if (cfg.membership.kind === "memberof") {
    groups = allValues(entry, cfg.membership.attribute);
  } else {
    const filter = fillTemplate(cfg.membership.filter, { dn: entry.dn, username: own }, escapeFilterValue);
    const r = await client.search(cfg.membership.base, { scope: "sub", filter, attributes: ["1.1"] });
    groups = r.searchEntries.map((g) => g.dn);
  }
  return {
    dn: entry.dn,
    names,
    firstName: firstValue(entry, a.firstName),
    lastName: firstValue(entry, a.lastName),
    email: firstValue(entry, a.email),
    groups,
  };
}

async function converse(
  client: Client,
  cfg: DirectoryConfig,
  host: string,
  username: string,
  password: string,
): Promise<DirectoryVerdict> {
  if (cfg.startTls) await client.startTLS({ ...tlsOptions(cfg, host), host });
  const wanted = wantedAttributes(cfg);

  let entry: Entry;
  if (cfg.bind.kind === "search") {
    // the service account finds the entry
    const search = cfg as DirectoryConfig & { bind: { kind: "search" } };
    await bindService(client, search);
    const found = await findUser(client, cfg.userSearch!, username, wanted);
    if (found.kind === "rejected") return found;
    try {
      await client.bind(found.entry.dn, password);
    } catch (e) {
      if (isRefusal(e)) return { kind: "rejected", known: true, why: "wrong password" };
      throw e;
    }
    entry = found.entry;
    // groups are looked up with the service account's rights, not the user's
    if (cfg.membership.kind === "search") await bindService(client, search);
  } else {
    const dn = fillTemplate(cfg.bind.template, { username }, escapeDnValue);
    try {
      await client.bind(dn, password);
    } catch (e) {
      // a direct bind cannot tell an unknown name from a wrong password
      if (isRefusal(e)) return { kind: "rejected", known: false, why: "bind refused" };
      throw e;
    }
    if (cfg.userSearch) {
      const found = await findUser(client, cfg.userSearch, username, wanted);
      if (found.kind === "rejected") return found;
      entry = found.entry;
    } else {
      const r = await client.search(dn, { scope: "base", filter: "(objectClass=*)", attributes: wanted });
      if (r.searchEntries.length !== 1) throw new Error("the bound entry could not be read");
      entry = r.searchEntries[0];
    }
  }
  return { kind: "accepted", person: await personOf(client, cfg, entry, username) };
}

async function findUser(
  client: Client,
  search: { base: string; filter: string },
  username: string,
  attributes: string[],
): Promise<{ kind: "found"; entry: Entry } | { kind: "rejected"; known: boolean; why: string }> {
  const filter = fillTemplate(search.filter, { username }, escapeFilterValue);
  let entries: Entry[];
  try {
    entries = (await client.search(search.base, { scope: "sub", filter, attributes, sizeLimit: 2 })).searchEntries;
  } catch (e) {
    if (e instanceof SizeLimitExceededError)
      return { kind: "rejected", known: true, why: "the name matches more than one entry" };
    throw e;
  }
  if (entries.length === 0) return { kind: "rejected", known: false, why: "no such user in the directory" };
  if (entries.length > 1) return { kind: "rejected", known: true, why: "the name matches more than one entry" };
  return { kind: "found", entry: entries[0] };
}
