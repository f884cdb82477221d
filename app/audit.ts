/**
 * Writing the audit log: device changes (and failed ones) and administrative changes
 * (users and inventory), with who, from where, what, before and after. Values of secrets
 * and passwords are never written: for administrative changes only the names of the
 * fields that changed.
 */
import type { Repos } from "../db/repos";
import type { Caller } from "./caller";
import { adminAction, type AdminObject, type AdminOperation, type AuditOutcome, type DeviceAction } from "../domain/audit-actions";
import type { ErrorCode } from "./errors";

/** Who did it, from where. */
export interface Actor {
  caller: Caller;
  /** client address */
  ip: string;
}

export interface DeviceAuditFacts {
  switch: { id: number; name: string };
  group_id: number;
  interface?: string;
  action: DeviceAction;
  old_value?: string;
  new_value?: string;
  outcome: AuditOutcome;
  code: ErrorCode | null;
  message: string;
}

export class AuditWriter {
  constructor(private readonly repos: Pick<Repos, "audit">) {}

  async device(actor: Actor, f: DeviceAuditFacts): Promise<void> {
    await this.repos.audit.write({
      user_id: actor.caller.user.id,
      username: actor.caller.user.username,
      source_address: actor.ip,
      switch_id: f.switch.id,
      switch_name: f.switch.name,
      group_id: f.group_id,
      interface: f.interface ?? "",
      action: f.action,
      old_value: f.old_value ?? "",
      new_value: f.new_value ?? "",
      outcome: f.outcome,
      code: f.code,
      message: f.message,
    });
  }

  /** "admin:<object>:<operation>" with the object's name and the fields given (or what was done) */
  async admin(actor: Actor, object: AdminObject, operation: AdminOperation, target: { id: number; name: string }, fields: string[] = []): Promise<void> {
    await this.repos.audit.write({
      user_id: actor.caller.user.id,
      username: actor.caller.user.username,
      source_address: actor.ip,
      switch_id: object === "switches" ? target.id : null,
      switch_name: object === "switches" ? target.name : "",
      group_id: object === "switch_groups" ? target.id : null,
      interface: "",
      action: adminAction(object, operation),
      old_value: "",
      new_value: [`${target.name} (id ${target.id})`, ...(fields.length ? [`fields: ${[...fields].sort().join(", ")}`] : [])].join("; "),
      outcome: "success",
      code: null,
      message: "",
    });
  }
}
