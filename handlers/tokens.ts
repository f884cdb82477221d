/** POST api/users/token/ (no auth), GET api/users/tokens/, DELETE api/users/tokens/<id>/ */
import { callerOf, noContent, ok, type Handler } from "./context";
import { ApiError, badRequest, notFound } from "./errors";
import { TooManyTokens } from "../db/tokens";
import { checkLogin } from "../server/login";
import * as msg from "../domain/messages";
import type { components } from "../generated/api";

function requiredString(body: Record<string, unknown>, field: string): string {
  const v = body[field];
  if (typeof v !== "string" || v === "") throw badRequest(msg.missingParameter(field), "missing_parameter");
  return v;
}

export const createToken: Handler = async (ctx) => {
  const s = ctx.services;
  const username = requiredString(ctx.body, "username");
  const password = requiredString(ctx.body, "password");
  const user = await checkLogin(s, username, password, ctx.ip);
  try {
    const { key } = await s.repos.tokens.create(user.id, {
      // a read-only user only ever gets read-only tokens
      writeEnabled: !user.profile.read_only,
      lifetimeMs: s.config.apiTokenLifetimeMs,
      max: s.config.apiMaxTokens,
      description: "API",
    });
    const body: components["schemas"]["TokenCreated"] = { token: key, user_id: user.id, email: user.email };
    return ok(body);
  } catch (e) {
    if (e instanceof TooManyTokens) throw new ApiError(400, "too_many_tokens", msg.TOO_MANY_TOKENS);
    throw e;
  }
};

export const listTokens: Handler = async (ctx) => {
  const list: components["schemas"]["TokenInfo"][] = await ctx.services.repos.tokens.listForUser(callerOf(ctx).user.id);
  return ok(list);
};

export const revokeToken: Handler = async (ctx) => {
  const removed = await ctx.services.repos.tokens.revoke(callerOf(ctx).user.id, ctx.params.id);
  if (!removed) throw notFound(`Token ${ctx.params.id} not found!`);
  return noContent();
};
