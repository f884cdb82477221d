/** POST api/users/token/ (no auth), GET api/users/tokens/, DELETE api/users/tokens/<id>/ */
import { callerOf, noContent, ok, pathId, type Handler } from "./context";
import { badRequest, notFound } from "../app/errors";
import { checkLogin } from "../app/login";
import { issueToken, tokenRoom } from "../app/accounts";
import * as msg from "../domain/messages";
import type { components } from "../generated/api";

function requiredString(body: Record<string, unknown>, field: string): string {
  const v = body[field];
  if (typeof v !== "string" || v === "") throw badRequest(msg.missingParameter(field), "missing_parameter");
  return v;
}

export const createToken: Handler = async (ctx) => {
  const username = requiredString(ctx.body, "username");
  const password = requiredString(ctx.body, "password");
  const user = await checkLogin(ctx.services, username, password, ctx.ip, "token", tokenRoom(ctx.services));
  return ok(await issueToken(ctx.services, user));
};

export const listTokens: Handler = async (ctx) => {
  const list: components["schemas"]["TokenInfo"][] = await ctx.services.repos.tokens.listForUser(callerOf(ctx).user.id);
  return ok(list);
};

export const revokeToken: Handler = async (ctx) => {
  const removed = await ctx.services.repos.tokens.revoke(callerOf(ctx).user.id, pathId(ctx, "id"));
  if (!removed) throw notFound(`Token ${pathId(ctx, "id")} not found!`);
  return noContent();
};
