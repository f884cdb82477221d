/** Builds everything a request needs, once per process. */
import crypto from "node:crypto";
import type { Config } from "./config";
import type { Services } from "../handlers/context";
import { openStore } from "../db/connect";
import { migrateToLatest } from "../db/migrations";
import { makeRepos } from "../db/repos";
import { SecretBox, loadSecret } from "../db/secrets";
import { LoginGuard } from "./login";
import { DeviceService } from "../handlers/device-service";
import { loadContract, type Contract } from "./contract";
import { packageVersion } from "./paths";
import { hashPassword } from "./passwords";

export async function buildServices(config: Config): Promise<{ services: Services; contract: Contract }> {
  const store = await openStore(config.databaseUrl);
  await migrateToLatest(store);
  const contract = await loadContract();
  const repos = makeRepos(store);
  const secrets = new SecretBox(loadSecret(config.secretKey, config.secretKeyFile));
  const services: Services = {
    config,
    store,
    repos,
    secrets,
    loginGuard: new LoginGuard(repos.loginFailures, { maxFailures: config.loginMaxFailures, windowMs: config.loginWindowMs }),
    devices: new DeviceService(repos, secrets),
    version: packageVersion(),
    startedAt: new Date(),
    spec: contract.document,
  };
  return { services, contract };
}

/**
 * On an empty user table, create the first superuser. Its password is the configured
 * one or a generated one that is returned (printed once by the caller).
 */
export async function ensureFirstSuperuser(s: Services): Promise<{ username: string; generatedPassword?: string } | null> {
  if ((await s.repos.users.count()) > 0) return null;
  const username = s.config.adminUser;
  const generated = s.config.adminPassword ? undefined : crypto.randomBytes(12).toString("base64url");
  await s.repos.users.create(
    { username, password: await hashPassword(s.config.adminPassword ?? generated!), is_staff: true, is_superuser: true },
    { vlan_edit: true, allow_poe_toggle: true },
  );
  return { username, generatedPassword: generated };
}
