/**
 * The device operations: menu, search, basic/details, and every device write (interface
 * state, PoE, VLAN, description; save; VLAN add, edit, delete), each handed to the
 * application (app/device-reads.ts, app/device-writes.ts).
 */
import { actorOf, callerOf, ok, okJson, pathId, pathText, pathTextOrNone, type Ctx, type Handler } from "./context";
import * as reads from "../app/device-reads";
import { DEVICE_WRITES, runWrite } from "../app/device-writes";
import { runBatch, runCycle } from "../app/port-batch";
import type { LearnScope } from "../model/device";

const showSwitch = (scope: LearnScope) => async (ctx: Ctx) =>
  ok(
    await reads.showSwitch(
      ctx.services,
      callerOf(ctx),
      pathId(ctx, "group"),
      pathId(ctx, "switch"),
      scope,
      ctx.baseUrl,
    ),
  );

const write =
  (operationId: string): Handler =>
  async (ctx) => {
    const result = await runWrite(ctx.services, operationId, {
      actor: actorOf(ctx),
      groupId: pathId(ctx, "group"),
      switchId: pathId(ctx, "switch"),
      interfaceId: pathTextOrNone(ctx, "interface"),
      body: ctx.body,
    });
    return ok({ result });
  };

/** the helpdesk writes (app/port-batch.ts): a bounce or PoE power cycle of one interface */
const cycle =
  (kind: "bounce" | "poe_cycle"): Handler =>
  async (ctx) => {
    const result = await runCycle(ctx.services, kind, {
      actor: actorOf(ctx),
      groupId: pathId(ctx, "group"),
      switchId: pathId(ctx, "switch"),
      interfaceId: pathText(ctx, "interface"),
      body: ctx.body,
    });
    return ok({ result });
  };

export const deviceHandlers: Record<string, Handler> = {
  runPortBatch: async (ctx) =>
    ok(
      await runBatch(ctx.services, {
        actor: actorOf(ctx),
        groupId: pathId(ctx, "group"),
        switchId: pathId(ctx, "switch"),
        body: ctx.body,
      }),
    ),
  bounceInterface: cycle("bounce"),
  cycleInterfacePoe: cycle("poe_cycle"),
  getMenu: async (ctx) => okJson(await reads.menu(ctx.services, callerOf(ctx), ctx.baseUrl)),
  searchSwitch: async (ctx) => ok(await reads.search(ctx.services, callerOf(ctx), pathText(ctx, "text"), ctx.baseUrl)),
  getSwitchBasic: showSwitch("basic"),
  getSwitchDetails: showSwitch("details"),
  ...Object.fromEntries(Object.keys(DEVICE_WRITES).map((operationId) => [operationId, write(operationId)])),
};
