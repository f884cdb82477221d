/**
 * The operations every inventory resource has under api/admin/ (list, create, read,
 * update, delete), done once for every kind from a description of the kind: OpenL2M's
 * names to the inventory's (app/admin/api-names.ts) -> parse and check (400) -> write the
 * row and its relations in one transaction -> audit -> the stored object as the API shows
 * it. Secrets are encrypted here, on their way to the store. The YAML import uses the same
 * checks on the inventory's names (app/inventory-import.ts).
 */
import type { Insertable, Updateable } from "kysely";
import type { Services } from "../services";
import { badRequest, notFound } from "../errors";
import { Issues, throwFirst } from "./fields";
import { ApiInput } from "./api-names";
import { auditedChange, type Actor } from "../audit";
import type { AdminObject } from "../../domain/audit-actions";
import { DuplicateName, MissingReference, type InventoryTable, type RelationIds, type Row } from "../../db/inventory";

export type { InventoryTable } from "../../db/inventory";
import type { Database } from "../../db/schema";
import type { SecretBox } from "../../db/secrets";

type Input = Record<string, unknown>;

/** What a kind's check function makes of one input object (API body or YAML entry). */
export interface Checked<T extends InventoryTable> {
  /** plain columns to write; only the fields that were given */
  columns: Updateable<Database[T]>;
  /** plain secrets by field name; null clears one */
  secrets: Record<string, string | null>;
  /** relations that are values, not references (a group's VLAN list) */
  relations: RelationIds[];
}

/** check(input, the stored row or null when creating, issues) */
export type CheckFn<T extends InventoryTable> = (input: Input, current: Row<T> | null, issues: Issues) => Checked<T>;

export interface Resource<T extends InventoryTable & AdminObject> {
  table: T;
  /** for "<Kind> with name 'x' already exists." */
  kind: string;
  /** the 404 reason for an unknown id */
  invalidId: string;
  /** secret field -> its encrypted column */
  secretColumns: Record<string, string>;
  check: CheckFn<T>;
  /** the API's body (OpenL2M's names and numbers) as the check's input, given the stored row or null */
  fromApi(body: Input, current: Row<T> | null, issues: Issues): ApiInput;
  /** the API's references by id (profiles, groups, users, switches): columns and relations, given the stored row or null */
  references?(
    s: Services,
    body: Input,
    issues: Issues,
    current: Row<T> | null,
  ): Promise<{ columns: Updateable<Database[T]>; relations: RelationIds[] }>;
  /** the API objects of some rows, in their order */
  views(s: Services, rows: Row<T>[]): Promise<unknown[]>;
}

/** secrets -> their encrypted columns (null stays null: cleared) */
export function seal(
  secretColumns: Record<string, string>,
  secrets: Record<string, string | null>,
  box: SecretBox,
): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const [field, plain] of Object.entries(secrets))
    out[secretColumns[field]] = plain === null ? null : box.encrypt(plain);
  return out;
}

/** ids that are not in `known`, for "no SNMP profile with id 9" messages */
export async function checkIds(
  s: Services,
  table: InventoryTable | "users",
  ids: number[],
  field: string,
  what: string,
  issues: Issues,
): Promise<void> {
  const known = new Set(await s.repos.inventory.existingIds(table, ids));
  const unknown = [...new Set(ids.filter((i) => !known.has(i)))];
  if (unknown.length) issues.invalid(field, `no ${what} with id ${unknown.join(", ")}`);
}

/** id and name of a stored row, for the audit log */
const named = (row: object) => ({ id: Number((row as Input).id), name: String((row as Input).name) });

function storeErrors(kind: string, name: unknown) {
  return (e: unknown): never => {
    if (e instanceof DuplicateName)
      throw badRequest(`${kind} with name '${String(name)}' already exists.`, "already_exists");
    if (e instanceof MissingReference)
      throw badRequest("A referenced object does not exist (it was deleted meanwhile?)");
    throw e;
  };
}

async function parse<T extends InventoryTable & AdminObject>(
  s: Services,
  r: Resource<T>,
  input: Input,
  current: Row<T> | null,
) {
  const issues = new Issues();
  const api = r.fromApi(input, current, issues);
  // the check and the references speak the inventory's names; their problems are told in the caller's
  const found = new Issues();
  const checked = r.check(api.out, current, found);
  const refs = r.references ? await r.references(s, api.out, found, current) : { columns: {}, relations: [] };
  api.report(found.list);
  throwFirst(issues);
  const columns = { ...checked.columns, ...refs.columns, ...seal(r.secretColumns, checked.secrets, s.secrets) };
  return { columns, relations: [...checked.relations, ...refs.relations] };
}

async function load<T extends InventoryTable & AdminObject>(s: Services, r: Resource<T>, id: number): Promise<Row<T>> {
  const row = await s.repos.inventory.get(r.table, id);
  if (!row) throw notFound(r.invalidId);
  return row;
}

const view = async <T extends InventoryTable & AdminObject>(s: Services, r: Resource<T>, row: Row<T>) =>
  (await r.views(s, [row]))[0];

/** The administration of one kind of inventory object, as the API offers it. */
export class InventoryAdmin<T extends InventoryTable & AdminObject> {
  constructor(
    private readonly s: Services,
    private readonly r: Resource<T>,
  ) {}

  async list(): Promise<unknown[]> {
    return this.r.views(this.s, await this.s.repos.inventory.list(this.r.table));
  }

  async get(id: number): Promise<unknown> {
    return view(this.s, this.r, await load(this.s, this.r, id));
  }

  async create(actor: Actor, input: Input): Promise<unknown> {
    const { s, r } = this;
    const { columns, relations } = await parse(s, r, input, null);
    const row = await auditedChange(s, async (repos, audit) => {
      // a new row: check() required its name, and every other column has a default
      const created = await repos.inventory
        .create(r.table, columns as Insertable<Database[T]>, relations)
        .catch(storeErrors(r.kind, (columns as Input).name));
      await audit.admin(actor, r.table, "create", named(created), Object.keys(input));
      return created;
    });
    return view(s, r, row);
  }

  async update(actor: Actor, id: number, input: Input): Promise<unknown> {
    const { s, r } = this;
    const current = await load(s, r, id);
    const { columns, relations } = await parse(s, r, input, current);
    const name = (columns as Input).name ?? (current as Input).name;
    const row = await auditedChange(s, async (repos, audit) => {
      const updated = await repos.inventory.update(r.table, id, columns, relations).catch(storeErrors(r.kind, name));
      if (!updated) throw notFound(r.invalidId);
      await audit.admin(actor, r.table, "update", named(updated), Object.keys(input));
      return updated;
    });
    return view(s, r, row);
  }

  async remove(actor: Actor, id: number): Promise<void> {
    const { s, r } = this;
    const row = await load(s, r, id);
    await auditedChange(s, async (repos, audit) => {
      if (!(await repos.inventory.remove(r.table, id))) throw notFound(r.invalidId);
      await audit.admin(actor, r.table, "delete", named(row));
    });
  }
}
