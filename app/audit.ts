/**
 * Writing the audit log: device changes (and failed ones) and administrative changes
 * (users and inventory), with who, from where, what, before and after. Values of secrets
 * and passwords are never written: for administrative changes only the names of the
 * fields that changed.
 */
import type { Repos } from "../db/repos";
import type { Caller } from "./caller";
import {
  adminAction,
  type AdminObject,
  type AdminOperation,
  type AuditAction,
  type AuditOutcome,
  type DeviceAction,
} from "../domain/audit-actions";
import type { ErrorCode } from "./errors";
import type { Settlement } from "../db/audit";

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

/**
 * An administrative change and its audit row in one transaction: `fn` gets repositories
 * bound to it and a writer of the log on the same transaction.
 */
export function auditedChange<T>(
  s: { repos: Pick<Repos, "atomically"> },
  fn: (repos: Repos, audit: AuditWriter) => Promise<T>,
): Promise<T> {
  return s.repos.atomically((repos) => fn(repos, new AuditWriter(repos)));
}

/** Errors whose refusal is already in the log (the shell does not write it again). */
const audited = new WeakSet<object>();

export function markAudited<T>(e: T): T {
  if (e !== null && typeof e === "object") audited.add(e);
  return e;
}

export function wasAudited(e: unknown): boolean {
  return e !== null && typeof e === "object" && audited.has(e);
}

export interface RefusalFacts {
  action: AuditAction;
  /** id null: a switch that was asked for but not found or not visible (its URL id in the name) */
  switch?: { id: number | null; name: string } | null;
  group_id?: number | null;
  interface?: string;
  old_value?: string;
  /** what was asked (for administrative requests the field names only, never values) */
  new_value?: string;
  outcome?: AuditOutcome;
  code: ErrorCode;
  message: string;
}

/** The audit row of a device write by `actor`. */
function deviceRow(actor: Actor, f: DeviceAuditFacts) {
  return {
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
  };
}

export class AuditWriter {
  constructor(private readonly repos: Pick<Repos, "audit">) {}

  async device(actor: Actor, f: DeviceAuditFacts): Promise<void> {
    await this.repos.audit.write(deviceRow(actor, f));
  }

  /**
   * The row of a device write about to change the device: outcome "pending", under the
   * write lease `lease`; its id, to settle it when the device answered.
   */
  async pending(
    actor: Actor,
    f: Omit<DeviceAuditFacts, "outcome" | "code" | "message">,
    lease: string,
  ): Promise<number> {
    return this.repos.audit.writePending(
      deviceRow(actor, { ...f, outcome: "pending", code: null, message: "" }),
      lease,
    );
  }

  /** A pending row settled: the device's answer and what the write learned on the way. */
  async settle(id: number, s: Settlement): Promise<void> {
    await this.repos.audit.settle(id, {
      ...s,
      message: s.message.slice(0, 1000),
      new_value: s.new_value?.slice(0, 500),
    });
  }

  /**
   * A refusal (permission, validation, same value, throttling, a failed login) or another
   * end that is not a success: who (or which username was tried), from where, what was asked.
   */
  async refusal(from: { caller: Caller | null; ip: string; username?: string }, f: RefusalFacts): Promise<void> {
    await this.repos.audit.write({
      user_id: from.caller?.user.id ?? null,
      username: (from.caller?.user.username ?? from.username ?? "").slice(0, 150),
      source_address: from.ip,
      switch_id: f.switch?.id ?? null,
      switch_name: f.switch?.name ?? "",
      group_id: f.group_id ?? null,
      interface: f.interface ?? "",
      action: f.action,
      old_value: f.old_value ?? "",
      new_value: (f.new_value ?? "").slice(0, 500),
      outcome: f.outcome ?? "refused",
      code: f.code,
      message: f.message.slice(0, 1000),
    });
  }

  /** "admin:<object>:<operation>" with the object's name and the fields given (or what was done) */
  async admin(
    actor: Actor,
    object: AdminObject,
    operation: AdminOperation,
    target: { id: number; name: string },
    fields: string[] = [],
  ): Promise<void> {
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
      new_value: [
        `${target.name} (id ${target.id})`,
        ...(fields.length ? [`fields: ${[...fields].sort().join(", ")}`] : []),
      ].join("; "),
      outcome: "success",
      code: null,
      message: "",
    });
  }
}
