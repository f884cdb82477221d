/**
 * The five operations every inventory resource has under api/admin/ (list, create,
 * read, update by POST or PATCH, delete), built once from a description of the
 * resource: parse and check (400) -> write row and relations in one transaction ->
 * answer the stored object. Secrets are encrypted here, on their way to the store.
 */
import type { Updateable } from "kysely";
import { created, noContent, ok, type Ctx, type Handler, type Services } from "./context";
import { badRequest, notFound } from "./errors";
import { Issues, throwFirst } from "./admin-fields";
import { auditAdmin } from "./admin-audit";
import { DuplicateName, MissingReference, type InventoryTable, type RelationIds, type Row } from "../db/inventory";
import type { Database } from "../db/schema";
import type { SecretBox } from "../db/secrets";

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

export interface Resource<T extends InventoryTable> {
  table: T;
  /** for "<Kind> with name 'x' already exists." */
  kind: string;
  /** the 404 reason for an unknown id */
  invalidId: string;
  /** secret field -> its encrypted column */
  secretColumns: Record<string, string>;
  check: CheckFn<T>;
  /** the API's references by id (profiles, groups, users, switches): columns and relations */
  references?(s: Services, body: Input, issues: Issues): Promise<{ columns: Updateable<Database[T]>; relations: RelationIds[] }>;
  /** the API objects of some rows, in their order */
  views(s: Services, rows: Row<T>[]): Promise<unknown[]>;
}

/** secrets -> their encrypted columns (null stays null: cleared) */
export function seal(secretColumns: Record<string, string>, secrets: Record<string, string | null>, box: SecretBox): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const [field, plain] of Object.entries(secrets)) out[secretColumns[field]] = plain === null ? null : box.encrypt(plain);
  return out;
}

/** ids that are not in `known`, for "no SNMP profile with id 9" messages */
export async function checkIds(s: Services, table: InventoryTable | "users", ids: number[], field: string, what: string, issues: Issues): Promise<void> {
  const known = new Set(await s.repos.inventory.existingIds(table, ids));
  const unknown = [...new Set(ids.filter((i) => !known.has(i)))];
  if (unknown.length) issues.invalid(field, `no ${what} with id ${unknown.join(", ")}`);
}

/** id and name of a stored row, for the audit log */
const named = (row: object) => ({ id: Number((row as Input).id), name: String((row as Input).name) });

function storeErrors(kind: string, name: unknown) {
  return (e: unknown): never => {
    if (e instanceof DuplicateName) throw badRequest(`${kind} with name '${String(name)}' already exists.`, "already_exists");
    if (e instanceof MissingReference) throw badRequest("A referenced object does not exist (it was deleted meanwhile?)");
    throw e;
  };
}

async function parse<T extends InventoryTable>(r: Resource<T>, ctx: Ctx, current: Row<T> | null) {
  const issues = new Issues();
  const checked = r.check(ctx.body, current, issues);
  const refs = r.references ? await r.references(ctx.services, ctx.body, issues) : { columns: {}, relations: [] };
  throwFirst(issues);
  const columns = { ...checked.columns, ...refs.columns, ...seal(r.secretColumns, checked.secrets, ctx.services.secrets) };
  return { columns, relations: [...checked.relations, ...refs.relations] };
}

export function crudHandlers<T extends InventoryTable>(
  r: Resource<T>,
  ops: { list: string; create: string; get: string; update: string; patch: string; remove: string },
): Record<string, Handler> {
  const load = async (ctx: Ctx): Promise<Row<T>> => {
    const row = await ctx.services.repos.inventory.get(r.table, ctx.params.id);
    if (!row) throw notFound(r.invalidId);
    return row;
  };
  const view = async (s: Services, row: Row<T>) => (await r.views(s, [row]))[0];

  const update: Handler = async (ctx) => {
    const current = await load(ctx);
    const { columns, relations } = await parse(r, ctx, current);
    const name = (columns as Input).name ?? (current as Input).name;
    const row = await ctx.services.repos.inventory.update(r.table, ctx.params.id, columns, relations).catch(storeErrors(r.kind, name));
    if (!row) throw notFound(r.invalidId);
    await auditAdmin(ctx, r.table, "update", named(row), Object.keys(ctx.body));
    return ok(await view(ctx.services, row));
  };

  return {
    [ops.list]: async (ctx) => ok(await r.views(ctx.services, await ctx.services.repos.inventory.list(r.table))),
    [ops.create]: async (ctx) => {
      const { columns, relations } = await parse(r, ctx, null);
      const row = await ctx.services.repos.inventory.create(r.table, columns as any, relations).catch(storeErrors(r.kind, (columns as Input).name));
      await auditAdmin(ctx, r.table, "create", named(row), Object.keys(ctx.body));
      return created(await view(ctx.services, row));
    },
    [ops.get]: async (ctx) => ok(await view(ctx.services, await load(ctx))),
    [ops.update]: update,
    [ops.patch]: update,
    [ops.remove]: async (ctx) => {
      const row = await load(ctx);
      if (!(await ctx.services.repos.inventory.remove(r.table, ctx.params.id))) throw notFound(r.invalidId);
      await auditAdmin(ctx, r.table, "delete", named(row));
      return noContent();
    },
  };
}
