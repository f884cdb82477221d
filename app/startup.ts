/**
 * Start-up, written once: open the store named by the configuration, migrate it, build
 * the repositories and the secret box (the "core" every command needs), and for the
 * service the rest of what a request needs. `serve`, every CLI command and the tests all
 * come through here.
 */
import crypto from "node:crypto";
import type { Config } from "./config";
import type { Services } from "./services";
import { describeStoreError, openStore, type Store } from "../db/connect";
import { SettingsRepo } from "../db/settings";
import { migrateToLatest, NewerDatabaseError } from "../db/migrations";
import { isUniqueViolation, isWriteConflict } from "../db/errors";
import { DuplicateUsername } from "../db/users";
import { WriteLeases } from "./write-lease";
import { makeRepos, type Repos } from "../db/repos";
import { KEY_CHECK_TEXT, SecretBox, loadSecret } from "../db/secrets";
import { LoginGuard } from "./login";
import { DeviceService } from "./devices";
import { packageVersion } from "./paths";
import { checkPasswordPolicy, hashPassword } from "./passwords";
import { ApiError } from "./errors";
import { loadSpecDocument } from "./spec";
import { AuditWriter } from "./audit";
import { Telemetry, createLogger } from "./telemetry";
import type { DestinationStream } from "pino";
import type { Registry } from "prom-client";
import { DeviceGates } from "../drivers/device-gate";
import { UsageCounter } from "./usage-counter";
import { instanceName } from "./instance-presence";
import { DirectoryRights } from "./directory/recheck";

export interface Core {
  config: Config;
  store: Store;
  repos: Repos;
  secrets: SecretBox;
}

/** The store, migrated, with its repositories and the secret box. */
export async function openCore(config: Config): Promise<Core> {
  const store = await openStore(config.databaseUrl).catch((e) => {
    throw describeStoreError(e, config.databaseUrl);
  });
  try {
    await migrateToLatest(store).catch((e) => {
      throw e instanceof NewerDatabaseError ? e : describeStoreError(e, config.databaseUrl);
    });
    const secrets = await checkedSecrets(config, new SettingsRepo(store.db));
    return { config, store, repos: makeRepos(store), secrets };
  } catch (e) {
    await store.close();
    throw e;
  }
}

const KEY_CHECK = "secret_key_check";

/**
 * The secret box, with the key tied to the database it encrypts: the first key a
 * database meets leaves a check value in it; later a different key, or none at all, is
 * refused here with one line, instead of every device call failing later.
 */
async function checkedSecrets(config: Config, settings: SettingsRepo): Promise<SecretBox> {
  const where = config.secretKey ? "SWITCHDESK_SECRET_KEY" : `the key file ${config.secretKeyFile}`;
  const check = await settings.get(KEY_CHECK);
  const secret = loadSecret(config.secretKey, config.secretKeyFile, { create: check === null });
  if (secret === null) {
    throw new Error(
      `No secret key: SWITCHDESK_SECRET_KEY is not set and ${config.secretKeyFile} does not exist, but this database holds device credentials encrypted with a key; restore the key from your backup (a new key cannot read them)`,
    );
  }
  const box = new SecretBox(secret);
  const stored = check ?? (await settings.putOnce(KEY_CHECK, box.encrypt(KEY_CHECK_TEXT)));
  let matches: boolean;
  try {
    matches = box.decrypt(stored) === KEY_CHECK_TEXT;
  } catch {
    matches = false;
  }
  if (!matches) {
    throw new Error(
      `The secret key from ${where} is not the key this database's device credentials were encrypted with; start with the right key (restore it from your backup)`,
    );
  }
  return box;
}

/** Applies pending migrations; the names applied now (`switchdesk migrate`). */
export async function migrateOnly(config: Config): Promise<string[]> {
  const store = await openStore(config.databaseUrl);
  try {
    return await migrateToLatest(store);
  } finally {
    await store.close();
  }
}

/** Runs a command against the core and always closes the store (CLI commands). */
export async function withCore<T>(config: Config, fn: (core: Core) => Promise<T>): Promise<T> {
  const core = await openCore(config);
  try {
    return await fn(core);
  } finally {
    await core.store.close();
  }
}

export function loginGuardOf(core: Pick<Core, "config" | "repos">, registry?: Registry): LoginGuard {
  const { loginMaxFailures: maxFailures, loginWindowMs: windowMs, loginDelayStepMs: stepMs } = core.config;
  return new LoginGuard(core.repos.loginFailures, { maxFailures, windowMs, stepMs }, Date.now, registry);
}

/**
 * Everything a request needs, for one service; the log goes to stdout unless told
 * otherwise. Every part is built here and handed to whoever uses it: the per-device gates
 * with this configuration's limits (to the device service, which gives them to each
 * driver it opens, and to the metrics), the audit writer (reporting to the log and the
 * metrics), the write leases under this service's own instance name. A second service in
 * the same process builds its own and shares none of them.
 */
export async function buildServices(
  config: Config,
  options: { logDestination?: DestinationStream } = {},
): Promise<Services> {
  const log = createLogger(config.logLevel, options.logDestination);
  const gates = new DeviceGates({ concurrency: config.deviceConcurrency, queueLimit: config.deviceQueueLimit });
  const telemetry = new Telemetry(log, gates);
  const core = await openCore(config);
  const audit = new AuditWriter(core.repos, telemetry);
  const instance = instanceName();
  const leases = new WriteLeases(
    core.repos,
    audit,
    instance,
    { leaseMs: config.deviceLeaseMs, waitMs: config.deviceWriteWaitMs },
    log,
  );
  return {
    ...core,
    loginGuard: loginGuardOf(core, telemetry.registry),
    devices: new DeviceService({ ...core, gates, leases, observer: telemetry, audit, log }),
    gates,
    leases,
    instance,
    audit,
    usage: new UsageCounter(core.repos.usage, instance, (err) => log.warn({ err }, "usage counts not written")),
    version: packageVersion(),
    startedAt: new Date(),
    spec: loadSpecDocument(),
    log,
    telemetry,
    directoryRights: config.directory
      ? new DirectoryRights(config.directory, core.repos, { warn: (l) => log.warn(l), info: (l) => log.info(l) })
      : null,
  };
}

/**
 * Ends what buildServices started, once the service answers no more requests: the usage
 * counts are written, the request scopes ended, the store closed.
 */
export async function closeServices(s: Pick<Services, "usage" | "telemetry" | "store">): Promise<void> {
  await s.usage.stop();
  s.telemetry.close();
  await s.store.close();
}

/**
 * On an empty user table, create the first superuser. Its password is the configured
 * one or a generated one that is returned (printed once by the caller). Of several
 * instances starting at once, one creates it; the others lose the race on the unique
 * username (or, on a Galera cluster, the commit's certification) and create nothing.
 */
export async function ensureFirstSuperuser(
  s: Pick<Core, "config" | "repos">,
): Promise<{ username: string; generatedPassword?: string } | null> {
  if ((await s.repos.users.count()) > 0) return null;
  const username = s.config.adminUser;
  if (s.config.adminPassword !== undefined) {
    try {
      checkPasswordPolicy(s.config.adminPassword, s.config.passwordMinLength);
    } catch (e) {
      throw new Error(
        `SWITCHDESK_ADMIN_PASSWORD, the first superuser's password: ${e instanceof ApiError ? e.reason : String(e)} (PASSWORD_MIN_LENGTH)`,
        { cause: e },
      );
    }
  }
  // base64url gives 4 characters per 3 bytes: at least 16 characters, and never fewer than the policy asks
  const bytes = Math.max(12, Math.ceil((s.config.passwordMinLength * 3) / 4));
  const generated = s.config.adminPassword ? undefined : crypto.randomBytes(bytes).toString("base64url");
  try {
    await s.repos.users.create(
      {
        username,
        password: await hashPassword(s.config.adminPassword ?? generated!),
        is_staff: true,
        is_superuser: true,
      },
      { vlan_edit: true, allow_poe_toggle: true },
    );
  } catch (e) {
    if (e instanceof DuplicateUsername || isUniqueViolation(e) || isWriteConflict(e)) return null;
    throw e;
  }
  return { username, generatedPassword: generated };
}
