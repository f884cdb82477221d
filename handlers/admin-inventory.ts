/**
 * Inventory administration under api/admin/ (snmpprofiles, credentials, switchgroups,
 * switches, log), keyed by operationId. The superuser rule is applied by handlers/index.ts.
 */
import type { Handler } from "./context";
import { snmpProfileHandlers } from "./admin-snmpprofiles";
import { credentialHandlers } from "./admin-credentials";
import { switchGroupHandlers } from "./admin-switchgroups";
import { switchHandlers } from "./admin-switches";
import { listLog } from "./admin-log";

export const inventoryHandlers: Record<string, Handler> = {
  ...snmpProfileHandlers,
  ...credentialHandlers,
  ...switchGroupHandlers,
  ...switchHandlers,
  listLog,
};
