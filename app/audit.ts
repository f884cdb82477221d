/**
 * Writing the audit log: device changes (and failed ones) and administrative changes
 * (users and inventory), with who, from where, what, before and after. Values of secrets
 * and passwords are never written: for administrative changes only the names of the
 * fields that changed.
 *
 * Every row goes through AuditWriter, and a row that cannot be written is never silent:
 * the writer's observer (app/telemetry.ts) logs an error line (what the row was about,
 * never its values) and counts it in switchdesk_audit_write_failures_total{kind}. Then
 * the caller's answer is decided by what the row was for: a row that must exist before
 * something happens (a device write's pending row, an administrative change's row in its
 * transaction) stops it; a row recording what already happened (a refusal, a failure, a
 * device's answer, a write cut off) does not change the answer the caller gets.
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
  type SettledOutcome,
  PIN_ACTIONS,
  outcomeOfCode,
} from "../domain/audit-actions";
import type { ErrorCode } from "./errors";
import type { Settlement } from "../db/audit";
import type { LeaseHolder } from "../db/leases";
import type { AuditObserver, AuditWriteKind } from "./telemetry";
import * as msg from "../domain/messages";

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
  /** the batch the row belongs to (app/port-batch.ts) */
  batch_id?: string | null;
}

/**
 * An administrative change and its audit row in one transaction: `fn` gets repositories
 * bound to it and a writer of the log on the same transaction.
 */
export function auditedChange<T>(
  s: { repos: Pick<Repos, "atomically">; audit: AuditWriter },
  fn: (repos: Repos, audit: AuditWriter) => Promise<T>,
): Promise<T> {
  return s.repos.atomically((repos) => fn(repos, s.audit.on(repos)));
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

/** Who asked (or which username was tried), from where: a refusal may come before the caller is known. */
export interface Asker {
  caller: Caller | null;
  ip: string;
  username?: string;
}

/** What a request that did not succeed was about, and how it ended. */
export interface FailureFacts {
  action: AuditAction;
  /** id null: a switch that was asked for but not found or not visible (its URL id in the name) */
  switch?: { id: number | null; name: string } | null;
  group_id?: number | null;
  interface?: string;
  old_value?: string;
  /** what was asked (for administrative requests the field names only, never values) */
  new_value?: string;
  /** by default the code's (domain/audit-actions.ts outcomeOfCode) */
  outcome?: SettledOutcome;
  code: ErrorCode;
  message: string;
  /** the batch the row belongs to (app/port-batch.ts) */
  batch_id?: string | null;
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
    batch_id: f.batch_id ?? null,
  };
}

export class AuditWriter {
  constructor(
    private readonly repos: Pick<Repos, "audit">,
    /** told of every row that could not be written (the JSON log and the metrics); stderr without it */
    private readonly observer?: AuditObserver,
  ) {}

  /** The same writer on other repositories (a transaction's), reporting to the same observer. */
  on(repos: Pick<Repos, "audit">): AuditWriter {
    return new AuditWriter(repos, this.observer);
  }

  /**
   * The row of a device write about to change the device: outcome "pending", under the
   * write lease `lease`; its id, to settle it when the device answered. A row that cannot
   * be written stops the write before the device is changed (the error is thrown).
   */
  async pending(
    actor: Actor,
    f: Omit<DeviceAuditFacts, "outcome" | "code" | "message">,
    lease: string,
  ): Promise<number> {
    const row = deviceRow(actor, { ...f, outcome: "pending", code: null, message: "" });
    return this.thrown("pending", row, () => this.repos.audit.writePending(row, lease));
  }

  /**
   * A pending row settled: the device's answer and what the write learned on the way.
   * Never throws: a row that cannot be settled stays pending (the device's next write
   * lease holder calls it unknown, app/write-lease.ts) and the caller still gets the
   * device's answer, since the device did answer.
   */
  async settle(id: number, s: Settlement): Promise<void> {
    await this.kept("settle", { row: id, outcome: s.outcome, code: s.code }, () =>
      this.repos.audit.settle(id, {
        ...s,
        message: s.message.slice(0, 1000),
        new_value: s.new_value?.slice(0, 500),
      }),
    );
  }

  /**
   * The one record of a request that did not succeed: a refusal (permission, validation,
   * same value, throttling, a failed login), a device's failure, an outcome not known.
   * Who (or which username was tried), from where, what was asked. A device write that
   * got as far as its pending row (`pending`, its id) has that row settled instead of a
   * new one. Never throws: the request has ended and its answer is already decided; a row
   * that cannot be written is an error line and a count.
   */
  async failure(from: Asker, f: FailureFacts, pending: number | null = null): Promise<void> {
    const outcome = f.outcome ?? outcomeOfCode(f.code);
    if (pending !== null) {
      const { interface: iface, old_value, new_value } = f;
      return this.settle(pending, {
        outcome,
        code: f.code,
        message: f.message,
        interface: iface,
        old_value,
        new_value,
      });
    }
    const row = {
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
      outcome,
      code: f.code,
      message: f.message.slice(0, 1000),
      batch_id: f.batch_id ?? null,
    };
    await this.kept("refusal", row, () => this.repos.audit.write(row));
  }

  /** "admin:<object>:<operation>" with the object's name and the fields given (or what was done) */
  async admin(
    actor: Actor,
    object: AdminObject,
    operation: AdminOperation,
    target: { id: number; name: string },
    fields: string[] = [],
  ): Promise<void> {
    const row = {
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
      outcome: "success" as const,
      code: null,
      message: "",
    };
    await this.thrown("admin", row, () => this.repos.audit.write(row));
  }

  /**
   * For the new holder of a device's write lease (app/write-lease.ts): the device's
   * pending rows of other holdings settled as unknown (their writes were cut off between
   * the row and its settling). The lease owners whose rows were settled; none when the
   * rows could not be read or settled (reported, never thrown: the write goes on).
   */
  async settleLeftovers(switchId: number, owner: string): Promise<string[]> {
    const settled: string[] = [];
    await this.kept("leftovers", { switch_id: switchId, outcome: "unknown" }, async () => {
      for (const row of await this.repos.audit.pendingOf(switchId, owner)) {
        const done = await this.repos.audit.settleUnknown(
          row.id,
          "device_outcome_unknown",
          msg.pendingWriteSettled(row.switch_name, row.time),
        );
        if (done) settled.push(row.write_lease);
      }
    });
    return settled;
  }

  /**
   * The row of a write whose instance died holding the device's lease (`dead`) and left no
   * pending row to settle: what is known of it. Never throws (the next write goes on).
   */
  async cutOff(device: { id: number; name: string }, dead: LeaseHolder): Promise<void> {
    const instance = dead.owner.replace(/#\d+$/, "");
    const row = {
      user_id: null,
      username: "",
      source_address: "",
      switch_id: device.id,
      switch_name: device.name,
      group_id: null,
      interface: "",
      action: "request:device_write",
      old_value: "",
      new_value: `write lease ${dead.owner} held since ${dead.since}`,
      outcome: "unknown" as const,
      code: "device_outcome_unknown",
      message: msg.writeCutOff(device.name, instance, dead.since, new Date(dead.expires_ms).toISOString()),
    };
    await this.kept("cut_off", row, () => this.repos.audit.write(row));
  }

  /**
   * A device's host key (ssh) or TLS certificate (tls) pinned at its first contact, by the
   * service (no user: the call that met the device is logged on its own). Never throws:
   * the pin is already stored; a row that cannot be written is reported.
   */
  async pinned(device: { id: number; name: string }, kind: "ssh" | "tls", fingerprint: string): Promise<void> {
    const column = kind === "ssh" ? "ssh_host_key" : "tls_certificate";
    const row = {
      user_id: null,
      username: "",
      source_address: "",
      switch_id: device.id,
      switch_name: device.name,
      group_id: null,
      interface: "",
      action: PIN_ACTIONS[kind],
      old_value: "",
      new_value: `${column}=${fingerprint}`,
      outcome: "success" as const,
      code: null,
      message: msg.pinnedOnFirstContact(device.name, kind === "ssh" ? "SSH host key" : "TLS certificate", fingerprint),
    };
    await this.kept("pin", row, () => this.repos.audit.write(row));
  }

  /**
   * The row of a port (or its PoE) switched on again by the device's write lease holder
   * after a bounce or power cycle whose instance stopped between off and on
   * (app/port-cycles.ts). Never throws (the write that found it goes on).
   */
  async switchedBackOn(f: {
    switch: { id: number; name: string };
    interface: string;
    action: DeviceAction;
    outcome: "success" | "failure" | "unknown";
    code: ErrorCode | null;
    message: string;
    batch_id: string | null;
  }): Promise<void> {
    const row = {
      user_id: null,
      username: "",
      source_address: "",
      switch_id: f.switch.id,
      switch_name: f.switch.name,
      group_id: null,
      interface: f.interface,
      action: f.action,
      old_value: "Disabled",
      new_value: "Enabled",
      outcome: f.outcome,
      code: f.code,
      message: f.message.slice(0, 1000),
      batch_id: f.batch_id,
    };
    await this.kept("cut_off", row, () => this.repos.audit.write(row));
  }

  /** Writes a row that must exist before what it records goes on: a failure is reported, then thrown. */
  private async thrown<T>(kind: AuditWriteKind, row: RowFacts, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      this.report(kind, err, row);
      throw err;
    }
  }

  /** Writes a row recording what already happened: a failure is reported and goes no further. */
  private async kept(kind: AuditWriteKind, row: RowFacts, write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (err) {
      this.report(kind, err, row);
    }
  }

  private report(kind: AuditWriteKind, err: unknown, row: RowFacts): void {
    // what the row was about, never its values (old/new values, messages, usernames tried)
    const about: Record<string, string | number | null> = {};
    for (const k of ["row", "action", "outcome", "code", "switch_id", "user_id"] as const)
      if (row[k] !== undefined) about[k] = row[k];
    if (this.observer) this.observer.auditWriteFailed(kind, err, about);
    else
      console.error(`an audit row (${kind}) could not be written: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** What a failed write's report may say of its row. */
interface RowFacts {
  row?: number;
  action?: string;
  outcome?: string;
  code?: string | null;
  switch_id?: number | null;
  user_id?: number | null;
}
