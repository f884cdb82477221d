/**
 * User administration (api/admin/users/) and API tokens as application operations: the
 * checks of a user's fields and profile, create, update (a new password ends the user's
 * other web sessions; revoke_tokens revokes its tokens), delete, unlock, and the views the
 * API shows. The last active superuser is kept by the user repository's transaction.
 * The command line's password change (`switchdesk changepassword`) is here too, so that
 * what a new password brings (newPasswordSet) is written once.
 */
import { ApiError, badRequest, notFound } from "./errors";
import { idList, optionalBool, optionalString, refuseFaultyText } from "./admin/parse";
import {
  DuplicateUsername,
  LastSuperuser,
  PROFILE_FLAGS,
  type ProfilePatch,
  type Theme,
  type User,
  type UserFields,
} from "../db/users";
import { TooManyTokens } from "../db/tokens";
import { checkPasswordPolicy, hashPassword } from "./passwords";
import * as msg from "../domain/messages";
import type { components } from "../generated/api";
import { auditedChange, type Actor } from "./audit";
import type { Services } from "./services";
import type { Repos } from "../db/repos";
import { loginName, USERNAME_CHARS } from "../domain/usernames";

type Input = Record<string, unknown>;
type UserJson = components["schemas"]["User"];
type UserListJson = components["schemas"]["UserListItem"];

const USERNAME = USERNAME_CHARS;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const THEMES = ["light", "dark"];
const READ_ONLY_PROFILE = new Set(["id", "user", "last_ldap_dn", "last_ldap_login", "last_ldap_check"]);

/** list view: the profile is only its id */
export const listView = (u: User): UserListJson => ({ ...u, profile: u.profile.id });
const detailView = (u: User): UserJson => u;

export function parseProfile(value: unknown): ProfilePatch {
  let v = value;
  if (typeof v === "string") {
    try {
      v = JSON.parse(v);
    } catch {
      throw badRequest(msg.INVALID_PROFILE);
    }
  }
  if (v === null || typeof v !== "object" || Array.isArray(v)) throw badRequest(msg.INVALID_PROFILE);
  const patch: ProfilePatch = {};
  for (const [k, raw] of Object.entries(v as Record<string, unknown>)) {
    if ((PROFILE_FLAGS as readonly string[]).includes(k)) {
      if (typeof raw !== "boolean") throw badRequest(`Invalid profile field '${k}': expected true or false`);
      patch[k as (typeof PROFILE_FLAGS)[number]] = raw;
    } else if (k === "ldap_linked") {
      if (typeof raw !== "boolean") throw badRequest(`Invalid profile field '${k}': expected true or false`);
      patch.ldap_linked = raw;
    } else if (k === "theme") {
      if (typeof raw !== "string" || !THEMES.includes(raw))
        throw badRequest(`Invalid profile field 'theme': expected one of ${THEMES.join(", ")}`);
      patch.theme = raw as Theme;
    } else if (READ_ONLY_PROFILE.has(k)) {
      throw badRequest(`Invalid profile field '${k}': it is read-only`);
    } else {
      throw badRequest(`Invalid profile field '${k}': unknown field`);
    }
  }
  return patch;
}

async function parseUser(s: Services, b: Record<string, unknown>, creating: boolean) {
  const fields: UserFields = {};
  if (creating || b.username !== undefined) {
    const u = b.username;
    if (typeof u !== "string" || u === "") throw badRequest(msg.missingParameter("username"), "missing_parameter");
    refuseFaultyText("username", u);
    if (u.length > 150 || !USERNAME.test(u)) {
      throw badRequest("Invalid value for parameter 'username': up to 150 letters, digits and @/./+/-/_ only");
    }
    fields.username = u;
  }
  if (creating || b.password !== undefined) {
    const p = b.password;
    if (typeof p !== "string" || p === "") throw badRequest(msg.missingParameter("password"), "missing_parameter");
    if (p.length > 4096) throw badRequest("Invalid value for parameter 'password': too long");
    checkPasswordPolicy(p, s.config.passwordMinLength);
    fields.password = await hashPassword(p);
  }
  fields.first_name = optionalString(b, "first_name", 150);
  fields.last_name = optionalString(b, "last_name", 150);
  fields.email = optionalString(b, "email", 254);
  if (fields.email && !EMAIL.test(fields.email))
    throw badRequest("Invalid value for parameter 'email': not an e-mail address");
  for (const f of ["is_active", "is_staff", "is_superuser"] as const) fields[f] = optionalBool(b, f);
  const profile = b.profile === undefined ? {} : parseProfile(b.profile);
  let switchgroups: number[] | undefined;
  if (b.switchgroups !== undefined) {
    switchgroups = idList(b.switchgroups, "switchgroups");
    const known = await s.repos.users.existingGroups(switchgroups);
    const unknown = switchgroups.filter((g) => !known.includes(g));
    if (unknown.length)
      throw badRequest(`Invalid value for parameter 'switchgroups': no group with id ${unknown.join(", ")}`);
  }
  return { fields, profile, switchgroups };
}

/** the fields named in the audit row; the directory link with its new value (it decides who may take the account) */
function auditFields(input: Input, profile: ProfilePatch): string[] {
  const fields = Object.keys(input);
  if (profile.ldap_linked !== undefined) fields.push(`profile.ldap_linked=${profile.ldap_linked}`);
  return fields;
}

function storeErrors(e: unknown): never {
  if (e instanceof DuplicateUsername) throw badRequest(msg.USERNAME_TAKEN, "already_exists");
  if (e instanceof LastSuperuser) throw new ApiError(409, "last_superuser", msg.LAST_SUPERUSER);
  throw e;
}

/**
 * The rule of a new password, in one place: the user's web sessions end, all but `keep`
 * (the session making the change, when it is the user's own). Its API tokens stay unless
 * revoking them is asked for separately. How many sessions ended.
 */
function newPasswordSet(repos: Pick<Repos, "sessions">, userId: number, keep?: number): Promise<number> {
  return repos.sessions.removeAllOfUser(userId, keep);
}

/**
 * `switchdesk changepassword`: a user's new password (already held to the policy by the
 * caller), with what a new password brings (newPasswordSet), and the user's API tokens
 * revoked when asked; in one transaction. How many sessions ended and tokens were revoked.
 */
export async function changePassword(
  repos: Pick<Repos, "atomically">,
  username: string,
  password: string,
  revokeTokens: boolean,
): Promise<{ sessions: number; tokens: number }> {
  const hashed = await hashPassword(password);
  return repos.atomically(async (tx) => {
    const user = await tx.users.findByUsername(username);
    if (!user) throw new Error(`no user named '${username}'`);
    await tx.users.update(user.id, { password: hashed }, {});
    const sessions = await newPasswordSet(tx, user.id);
    const tokens = revokeTokens ? await tx.tokens.revokeAllOfUser(user.id) : 0;
    return { sessions, tokens };
  });
}

async function existing(s: Services, id: number): Promise<User> {
  const user = await s.repos.users.get(id);
  if (!user) throw notFound(msg.INVALID_USER_ID);
  return user;
}

export async function listUsers(s: Services): Promise<UserListJson[]> {
  return (await s.repos.users.list()).map(listView);
}

export async function getUser(s: Services, id: number): Promise<UserJson> {
  return detailView(await existing(s, id));
}

export async function createUser(s: Services, actor: Actor, input: Input): Promise<UserJson> {
  const { fields, profile, switchgroups } = await parseUser(s, input, true);
  const user = await auditedChange(s, async (repos, audit) => {
    const created = await repos.users
      .create(fields as UserFields & { username: string; password: string }, profile, switchgroups)
      .catch(storeErrors);
    await audit.admin(
      actor,
      "users",
      "create",
      { id: created.id, name: created.username },
      auditFields(input, profile),
    );
    return created;
  });
  return detailView(user);
}

export async function updateUser(s: Services, actor: Actor, id: number, input: Input): Promise<UserJson> {
  await existing(s, id);
  const { fields, profile, switchgroups } = await parseUser(s, input, false);
  const revokeTokens = optionalBool(input, "revoke_tokens") ?? false;
  const user = await auditedChange(s, async (repos, audit) => {
    const updated = await repos.users.update(id, fields, profile, switchgroups).catch(storeErrors);
    if (!updated) throw notFound(msg.INVALID_USER_ID);
    // a new password ends the user's web sessions, all but the one making the change
    if (fields.password !== undefined) {
      const own = actor.caller.user.id === updated.id ? actor.caller.session?.id : undefined;
      await newPasswordSet(repos, updated.id, own);
    }
    if (revokeTokens) await repos.tokens.revokeAllOfUser(updated.id);
    await audit.admin(
      actor,
      "users",
      "update",
      { id: updated.id, name: updated.username },
      auditFields(input, profile),
    );
    return updated;
  });
  return detailView(user);
}

export async function unlockUser(s: Services, actor: Actor, id: number): Promise<void> {
  const user = await existing(s, id);
  const wasLocked = await s.loginGuard.unlock(loginName(user.username));
  await s.audit.admin(
    actor,
    "users",
    "unlock",
    { id: user.id, name: user.username },
    wasLocked ? ["failed_logins"] : [],
  );
}

export async function deleteUser(s: Services, actor: Actor, id: number): Promise<void> {
  if (id === actor.caller.user.id) throw new ApiError(409, "conflict", "You can not delete your own account!");
  const user = await existing(s, id);
  await auditedChange(s, async (repos, audit) => {
    if (!(await repos.users.remove(id).catch(storeErrors))) throw notFound(msg.INVALID_USER_ID);
    await audit.admin(actor, "users", "delete", { id: user.id, name: user.username });
  });
}

/**
 * For the token endpoint's login: refuses (too_many_tokens) before a directory login
 * changes anything on an account that already holds the most tokens it may.
 */
export function tokenRoom(s: Services): (existing: User) => Promise<void> {
  return async (existing) => {
    if ((await s.repos.tokens.liveCount(existing.id)) >= s.config.apiMaxTokens)
      throw new ApiError(400, "too_many_tokens", msg.TOO_MANY_TOKENS);
  };
}

/** A new API token for a user who just proved its password; a read-only user gets a read-only one. */
export async function issueToken(s: Services, user: User): Promise<components["schemas"]["TokenCreated"]> {
  try {
    const { key } = await s.repos.tokens.create(user.id, {
      writeEnabled: !user.profile.read_only,
      lifetimeMs: s.config.apiTokenLifetimeMs,
      max: s.config.apiMaxTokens,
      description: "API",
    });
    return { token: key, user_id: user.id, email: user.email };
  } catch (e) {
    if (e instanceof TooManyTokens) throw new ApiError(400, "too_many_tokens", msg.TOO_MANY_TOKENS);
    throw e;
  }
}
