/**
 * GET api/switches/find/: where is a MAC or IP address plugged in (app/find.ts,
 * docs/api-decisions.md section 18).
 */
import { callerOf, ok, queryInt, queryText, type Handler } from "./context";
import { findAddress } from "../app/find";

export const findHandlers: Record<string, Handler> = {
  findAddress: async (ctx) =>
    ok(
      await findAddress(
        ctx.services,
        callerOf(ctx),
        {
          address: queryText(ctx, "address") ?? "",
          group: queryInt(ctx, "group"),
          switches: queryText(ctx, "switches"),
        },
        ctx.baseUrl,
      ),
    ),
};
