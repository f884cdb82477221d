/** GET api/admin/log/: the audit log, newest first, one page at a time, optionally by device, user, outcome or action. */
import { ok, type Handler } from "./context";
import type { components } from "../generated/api";

export const DEFAULT_PAGE_SIZE = 50;

export const listLog: Handler = async (ctx) => {
  // bounds (page >= 1, page_size 1..500) are the spec's, checked before we get here
  const page: number = ctx.query.page ?? 1;
  const pageSize: number = ctx.query.page_size ?? DEFAULT_PAGE_SIZE;
  const { count, results } = await ctx.services.repos.audit.page({
    page,
    pageSize,
    switchId: ctx.query.switch,
    userId: ctx.query.user,
    // outcome's values are the spec's enum, checked before we get here
    outcome: ctx.query.outcome,
    action: ctx.query.action,
  });
  const body: components["schemas"]["LogPage"] = { count, page, page_size: pageSize, results };
  return ok(body);
};
