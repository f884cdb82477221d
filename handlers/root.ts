/** api/, api/schema/, api/environment/, api/stats/, api/admin/ */
import { callerOf, ok, type Handler } from "./context";
import { environment, statistics } from "../app/stats";
import { adminRootView, apiRootView } from "../domain/views";

export const apiRoot: Handler = async (ctx) => ok(apiRootView(callerOf(ctx), ctx.baseUrl));

export const adminRoot: Handler = async (ctx) => ok(adminRootView(ctx.baseUrl));

export const getSchema: Handler = async (ctx) => ok(ctx.services.spec);

export const getEnvironment: Handler = async (ctx) => ok(await environment(ctx.services));

export const getStats: Handler = async (ctx) => ok(await statistics(ctx.services));
