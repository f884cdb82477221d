/**
 * Administrative changes (users and inventory) go to the audit log too: who, from where,
 * what object, which fields. Values of secrets and passwords are never written, only the
 * names of the fields that changed.
 */
import type { Ctx } from "./context";
import { callerOf } from "./context";

export type AdminOp = "create" | "update" | "delete" | "unlock";

/** "admin:<table>:<op>" with the object's name and the fields given */
export async function auditAdmin(ctx: Ctx, table: string, op: AdminOp, object: { id: number; name: string }, fields: string[] = []): Promise<void> {
  const caller = callerOf(ctx);
  await ctx.services.repos.audit.write({
    user_id: caller.user.id,
    username: caller.user.username,
    source_address: ctx.ip,
    switch_id: table === "switches" ? object.id : null,
    switch_name: table === "switches" ? object.name : "",
    group_id: table === "switch_groups" ? object.id : null,
    interface: "",
    action: `admin:${table}:${op}`,
    old_value: "",
    new_value: [`${object.name} (id ${object.id})`, ...(fields.length ? [`fields: ${[...fields].sort().join(", ")}`] : [])].join("; "),
    outcome: "success",
    code: null,
    message: "",
  });
}
