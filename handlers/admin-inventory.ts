/** Inventory administration under api/admin/ (snmpprofiles, credentials, switchgroups, switches, log). */
import type { Handler } from "./context";

export const inventoryHandlers: Record<string, Handler> = {};
