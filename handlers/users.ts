/**
 * api/admin/users/: list, create (201, full profile), read, update by POST or PATCH
 * (partial profile updates keep other fields), delete. Superusers only (checked by
 * the admin guard in handlers/index.ts).
 */
import { callerOf, created, noContent, ok, type Ctx, type Handler } from "./context";
import { ApiError, badRequest, notFound } from "./errors";
import { idList, optionalBool, optionalString } from "./parse";
import { DuplicateUsername, LastSuperuser, PROFILE_FLAGS, type ProfilePatch, type Theme, type User, type UserFields } from "../db/users";
import { hashPassword } from "../server/passwords";
import * as msg from "../domain/messages";
import type { components } from "../generated/api";
import { auditAdmin } from "./admin-audit";

type UserJson = components["schemas"]["User"];
type UserListJson = components["schemas"]["UserListItem"];

const USERNAME = /^[\w.@+-]+$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const THEMES = ["light", "dark"];
const READ_ONLY_PROFILE = new Set(["id", "user", "last_ldap_dn", "last_ldap_login"]);

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
    } else if (k === "theme") {
      if (typeof raw !== "string" || !THEMES.includes(raw)) throw badRequest(`Invalid profile field 'theme': expected one of ${THEMES.join(", ")}`);
      patch.theme = raw as Theme;
    } else if (READ_ONLY_PROFILE.has(k)) {
      throw badRequest(`Invalid profile field '${k}': it is read-only`);
    } else {
      throw badRequest(`Invalid profile field '${k}': unknown field`);
    }
  }
  return patch;
}

async function parseUser(ctx: Ctx, creating: boolean) {
  const b = ctx.body;
  const fields: UserFields = {};
  if (creating || b.username !== undefined) {
    const u = b.username;
    if (typeof u !== "string" || u === "") throw badRequest(msg.missingParameter("username"), "missing_parameter");
    if (u.length > 150 || !USERNAME.test(u)) {
      throw badRequest("Invalid value for parameter 'username': up to 150 letters, digits and @/./+/-/_ only");
    }
    fields.username = u;
  }
  if (creating || b.password !== undefined) {
    const p = b.password;
    if (typeof p !== "string" || p === "") throw badRequest(msg.missingParameter("password"), "missing_parameter");
    if (p.length > 4096) throw badRequest("Invalid value for parameter 'password': too long");
    fields.password = await hashPassword(p);
  }
  fields.first_name = optionalString(b, "first_name", 150);
  fields.last_name = optionalString(b, "last_name", 150);
  fields.email = optionalString(b, "email", 254);
  if (fields.email && !EMAIL.test(fields.email)) throw badRequest("Invalid value for parameter 'email': not an e-mail address");
  for (const f of ["is_active", "is_staff", "is_superuser"] as const) fields[f] = optionalBool(b, f);
  const profile = b.profile === undefined ? {} : parseProfile(b.profile);
  let switchgroups: number[] | undefined;
  if (b.switchgroups !== undefined) {
    switchgroups = idList(b.switchgroups, "switchgroups");
    const known = await ctx.services.repos.users.existingGroups(switchgroups);
    const unknown = switchgroups.filter((g) => !known.includes(g));
    if (unknown.length) throw badRequest(`Invalid value for parameter 'switchgroups': no group with id ${unknown.join(", ")}`);
  }
  return { fields, profile, switchgroups };
}

function duplicate(e: unknown): never {
  if (e instanceof DuplicateUsername) throw badRequest(msg.USERNAME_TAKEN, "already_exists");
  if (e instanceof LastSuperuser) throw new ApiError(409, "last_superuser", msg.LAST_SUPERUSER);
  throw e;
}

export const listUsers: Handler = async (ctx) => ok((await ctx.services.repos.users.list()).map(listView));

export const createUser: Handler = async (ctx) => {
  const { fields, profile, switchgroups } = await parseUser(ctx, true);
  const user = await ctx.services.repos.users
    .create(fields as UserFields & { username: string; password: string }, profile, switchgroups)
    .catch(duplicate);
  await auditAdmin(ctx, "users", "create", { id: user.id, name: user.username }, Object.keys(ctx.body));
  return created(detailView(user));
};

export const getUser: Handler = async (ctx) => {
  const user = await ctx.services.repos.users.get(ctx.params.id);
  if (!user) throw notFound(msg.INVALID_USER_ID);
  return ok(detailView(user));
};

export const updateUser: Handler = async (ctx) => {
  const repos = ctx.services.repos;
  if (!(await repos.users.get(ctx.params.id))) throw notFound(msg.INVALID_USER_ID);
  const { fields, profile, switchgroups } = await parseUser(ctx, false);
  const revokeTokens = optionalBool(ctx.body, "revoke_tokens") ?? false;
  const user = await repos.users.update(ctx.params.id, fields, profile, switchgroups).catch(duplicate);
  if (!user) throw notFound(msg.INVALID_USER_ID);
  // a new password ends the user's web sessions, all but the one making the change
  if (fields.password !== undefined) {
    const caller = callerOf(ctx);
    await repos.sessions.removeAllOfUser(user.id, caller.user.id === user.id ? caller.session?.id : undefined);
  }
  if (revokeTokens) await repos.tokens.revokeAllOfUser(user.id);
  await auditAdmin(ctx, "users", "update", { id: user.id, name: user.username }, Object.keys(ctx.body));
  return ok(detailView(user));
};

export const unlockUser: Handler = async (ctx) => {
  const user = await ctx.services.repos.users.get(ctx.params.id);
  if (!user) throw notFound(msg.INVALID_USER_ID);
  const wasLocked = await ctx.services.loginGuard.unlock(user.username);
  await auditAdmin(ctx, "users", "unlock", { id: user.id, name: user.username }, wasLocked ? ["failed_logins"] : []);
  return noContent();
};

export const deleteUser: Handler = async (ctx) => {
  if (ctx.params.id === callerOf(ctx).user.id) throw new ApiError(409, "conflict", "You can not delete your own account!");
  const user = await ctx.services.repos.users.get(ctx.params.id);
  if (!user || !(await ctx.services.repos.users.remove(ctx.params.id).catch(duplicate))) throw notFound(msg.INVALID_USER_ID);
  await auditAdmin(ctx, "users", "delete", { id: user.id, name: user.username });
  return noContent();
};
