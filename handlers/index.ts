/**
 * operationId -> handler. Operations under api/admin/ are for superusers only; that rule
 * is applied here, once, for every admin operation.
 */
import type { Handler } from "./context";
import { callerOf } from "./context";
import { forbidden } from "./errors";
import * as msg from "../domain/messages";
import * as root from "./root";
import * as tokens from "./tokens";
import * as users from "./users";
import { inventoryHandlers } from "./admin-inventory";
import { deviceHandlers } from "./devices";

const superuserOnly =
  (h: Handler): Handler =>
  async (ctx) => {
    if (!callerOf(ctx).user.is_superuser) throw forbidden(msg.NO_ADMIN_PERMISSION, "forbidden");
    return h(ctx);
  };

const admin: Record<string, Handler> = {
  adminRoot: root.adminRoot,
  listUsers: users.listUsers,
  createUser: users.createUser,
  getUser: users.getUser,
  updateUser: users.updateUser,
  patchUser: users.updateUser,
  deleteUser: users.deleteUser,
  ...inventoryHandlers,
};

export const handlers: Record<string, Handler> = {
  apiRoot: root.apiRoot,
  getSchema: root.getSchema,
  getEnvironment: root.getEnvironment,
  getStats: root.getStats,
  createToken: tokens.createToken,
  listTokens: tokens.listTokens,
  revokeToken: tokens.revokeToken,
  ...deviceHandlers,
  ...Object.fromEntries(Object.entries(admin).map(([k, h]) => [k, superuserOnly(h)])),
};
