/** GET api/admin/log/: the audit log, newest first, one page at a time, optionally by device, user, outcome or action. */
import { ok, queryChoice, queryInt, queryText, type Handler } from "./context";
import type { components, operations } from "../generated/api";

export const DEFAULT_PAGE_SIZE = 50;

type Outcome = NonNullable<NonNullable<operations["listLog"]["parameters"]["query"]>["outcome"]>;
/** the spec's outcomes of a log row */
const OUTCOMES: readonly Outcome[] = ["success", "failure", "refused", "unknown", "pending"];

export const listLog: Handler = async (ctx) => {
  // bounds (page >= 1, page_size 1..500) and the outcome's values are the spec's, checked before we get here
  const page = queryInt(ctx, "page") ?? 1;
  const pageSize = queryInt(ctx, "page_size") ?? DEFAULT_PAGE_SIZE;
  const { count, results } = await ctx.services.repos.audit.page({
    page,
    pageSize,
    switchId: queryInt(ctx, "switch"),
    userId: queryInt(ctx, "user"),
    outcome: queryChoice(ctx, "outcome", OUTCOMES),
    action: queryText(ctx, "action"),
    batchId: queryText(ctx, "batch"),
  });
  const body: components["schemas"]["LogPage"] = { count, page, page_size: pageSize, results };
  return ok(body);
};
