/**
 * operationId -> handler. Operations under api/admin/ are for superusers only (and only
 * read with a read-only token); the server applies that rule to every operation the spec
 * tags "admin", before it reads the request body.
 */
import type { Handler } from "./context";
import * as root from "./root";
import * as tokens from "./tokens";
import * as users from "./users";
import { inventoryHandlers } from "./admin-inventory";
import { deviceHandlers } from "./devices";
import { findHandlers } from "./find";

const admin: Record<string, Handler> = {
  adminRoot: root.adminRoot,
  listUsers: users.listUsers,
  createUser: users.createUser,
  getUser: users.getUser,
  updateUser: users.updateUser,
  patchUser: users.updateUser,
  deleteUser: users.deleteUser,
  unlockUser: users.unlockUser,
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
  ...findHandlers,
  ...admin,
};
