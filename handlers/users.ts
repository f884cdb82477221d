/**
 * api/admin/users/: list, create (201, full profile), read, update by POST or PATCH
 * (partial profile updates keep other fields), unlock, delete. The rules are the
 * application's (app/accounts.ts); superusers only (the server's admin gate).
 */
import { actorOf, created, noContent, ok, pathId, type Handler } from "./context";
import * as accounts from "../app/accounts";

export const listUsers: Handler = async (ctx) => ok(await accounts.listUsers(ctx.services));

export const createUser: Handler = async (ctx) =>
  created(await accounts.createUser(ctx.services, actorOf(ctx), ctx.body));

export const getUser: Handler = async (ctx) => ok(await accounts.getUser(ctx.services, pathId(ctx, "id")));

export const updateUser: Handler = async (ctx) =>
  ok(await accounts.updateUser(ctx.services, actorOf(ctx), pathId(ctx, "id"), ctx.body));

export const unlockUser: Handler = async (ctx) => {
  await accounts.unlockUser(ctx.services, actorOf(ctx), pathId(ctx, "id"));
  return noContent();
};

export const deleteUser: Handler = async (ctx) => {
  await accounts.deleteUser(ctx.services, actorOf(ctx), pathId(ctx, "id"));
  return noContent();
};
