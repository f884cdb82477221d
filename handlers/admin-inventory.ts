/**
 * Inventory administration under api/admin/ (switches, and OpenL2M's switches/snmpprofiles,
 * switches/netmikoprofiles and switches/switchgroups with their aliases snmpprofiles,
 * credentials and switchgroups; log), keyed by operationId: each kind's operations handed
 * to the application's InventoryAdmin, an alias's to the same functions. The superuser rule
 * is applied by the server to every operation the spec tags "admin".
 */
import { actorOf, created, noContent, ok, pathId, type Handler } from "./context";
import { InventoryAdmin, type InventoryTable, type Resource } from "../app/admin/resource";
import type { AdminObject } from "../domain/audit-actions";
import { snmpProfiles } from "../app/admin/snmp-profiles";
import { credentials } from "../app/admin/credentials";
import { switchGroups } from "../app/admin/switch-groups";
import { switches } from "../app/admin/switches";
import { listLog } from "./admin-log";
import { acceptCertificate, acceptHostKey, redetectSwitch } from "../app/admin/switch-actions";

function crudHandlers<T extends InventoryTable & AdminObject>(
  r: Resource<T>,
  ops: { list: string; create: string; get: string; update: string; patch: string; remove: string },
): Record<string, Handler> {
  const admin = (ctx: Parameters<Handler>[0]) => new InventoryAdmin(ctx.services, r);
  const update: Handler = async (ctx) => ok(await admin(ctx).update(actorOf(ctx), pathId(ctx, "id"), ctx.body));
  return {
    [ops.list]: async (ctx) => ok(await admin(ctx).list()),
    [ops.create]: async (ctx) => created(await admin(ctx).create(actorOf(ctx), ctx.body)),
    [ops.get]: async (ctx) => ok(await admin(ctx).get(pathId(ctx, "id"))),
    [ops.update]: update,
    [ops.patch]: update,
    [ops.remove]: async (ctx) => {
      await admin(ctx).remove(actorOf(ctx), pathId(ctx, "id"));
      return noContent();
    },
  };
}

export const inventoryHandlers: Record<string, Handler> = {
  ...crudHandlers(snmpProfiles, {
    list: "listAdminSnmpProfiles",
    create: "createAdminSnmpProfile",
    get: "getAdminSnmpProfile",
    update: "updateAdminSnmpProfile",
    patch: "patchAdminSnmpProfile",
    remove: "deleteAdminSnmpProfile",
  }),
  ...crudHandlers(snmpProfiles, {
    list: "listSnmpProfiles",
    create: "createSnmpProfile",
    get: "getSnmpProfile",
    update: "updateSnmpProfile",
    patch: "patchSnmpProfile",
    remove: "deleteSnmpProfile",
  }),
  ...crudHandlers(credentials, {
    list: "listNetmikoProfiles",
    create: "createNetmikoProfile",
    get: "getNetmikoProfile",
    update: "updateNetmikoProfile",
    patch: "patchNetmikoProfile",
    remove: "deleteNetmikoProfile",
  }),
  ...crudHandlers(credentials, {
    list: "listCredentials",
    create: "createCredential",
    get: "getCredential",
    update: "updateCredential",
    patch: "patchCredential",
    remove: "deleteCredential",
  }),
  ...crudHandlers(switchGroups, {
    list: "listAdminSwitchGroups",
    create: "createAdminSwitchGroup",
    get: "getAdminSwitchGroup",
    update: "updateAdminSwitchGroup",
    patch: "patchAdminSwitchGroup",
    remove: "deleteAdminSwitchGroup",
  }),
  ...crudHandlers(switchGroups, {
    list: "listSwitchGroups",
    create: "createSwitchGroup",
    get: "getSwitchGroup",
    update: "updateSwitchGroup",
    patch: "patchSwitchGroup",
    remove: "deleteSwitchGroup",
  }),
  ...crudHandlers(switches, {
    list: "listAdminSwitches",
    create: "createAdminSwitch",
    get: "getAdminSwitch",
    update: "updateAdminSwitch",
    patch: "patchAdminSwitch",
    remove: "deleteAdminSwitch",
  }),
  redetectAdminSwitch: async (ctx) => {
    await redetectSwitch(ctx.services, actorOf(ctx), pathId(ctx, "id"));
    return noContent();
  },
  acceptHostKeyAdminSwitch: async (ctx) => {
    await acceptHostKey(ctx.services, actorOf(ctx), pathId(ctx, "id"));
    return noContent();
  },
  acceptCertificateAdminSwitch: async (ctx) => {
    await acceptCertificate(ctx.services, actorOf(ctx), pathId(ctx, "id"));
    return noContent();
  },
  listLog,
};
