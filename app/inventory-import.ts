/**
 * `switchdesk inventory import FILE.yaml`: SNMP profiles, credential profiles (SSH and the
 * API connectors), device groups and devices from a YAML file, referring to each other (and
 * to users) by name.
 *
 * The whole file is checked first, with the same check per kind as the admin API, and
 * every problem is reported with its place ("switches[2].snmp_profile: ..."). Only a
 * clean file is applied, in one transaction. Objects are matched by name (without regard
 * to case, like the unique index): missing ones are created, present ones get the fields
 * the file gives (others keep their values), objects not in the file are left alone.
 * Running the same file twice changes nothing the second time.
 */
import fs from "node:fs";
import YAML from "yaml";
import type { Config } from "./config";
import { withCore } from "./startup";
import type { Repos } from "../db/repos";
import type { SecretBox } from "../db/secrets";
import type { Insertable, Updateable } from "kysely";
import type { InventoryTable, InventoryWriter, Relation, Row } from "../db/inventory";
import type { Database } from "../db/schema";
import { Issues } from "./admin/fields";
import { seal, type CheckFn } from "./admin/resource";
import { SNMP_PROFILE_FIELDS, SNMP_SECRET_COLUMNS, checkSnmpProfile } from "./admin/snmp-profiles";
import { CREDENTIAL_FIELDS, CREDENTIAL_SECRET_COLUMNS, checkCredential } from "./admin/credentials";
import { GROUP_FIELDS, checkSwitchGroup } from "./admin/switch-groups";
import {
  SWITCH_FIELDS,
  checkConnectorProfile,
  checkSwitch,
  isApiConnector,
  profileFacts,
  type ProfileFacts,
} from "./admin/switches";

type Input = Record<string, unknown>;
export type SectionName = "snmp_profiles" | "credentials" | "groups" | "switches";

export interface SectionReport {
  created: string[];
  updated: { name: string; fields: string[] }[];
  unchanged: string[];
}
export type ImportReport = Record<SectionName, SectionReport>;

/** A file that cannot be applied; nothing was changed. */
export class InventoryFileError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `${problems.length} problem${problems.length === 1 ? "" : "s"}, nothing was changed:\n${problems.map((p) => `  ${p}`).join("\n")}`,
    );
  }
}

/** a reference by name to a profile of the file or of the store */
interface Ref {
  field: string;
  column: string;
  target: SectionName;
}

/** the table of each section */
interface TableOf {
  snmp_profiles: "snmp_profiles";
  credentials: "credentials";
  groups: "switch_groups";
  switches: "switches";
}

interface Section<T extends InventoryTable> {
  table: T;
  label: string;
  /** the admin API's check of this kind, given the stored row of this section's table */
  check: CheckFn<T>;
  fields: readonly string[];
  secretColumns: Record<string, string>;
  /** single references: name or null */
  refs: Ref[];
  /** a list of names that becomes a relation */
  list?: { field: string; relation: Relation | "groups"; target: SectionName | "users" };
}

// in the order they are applied: what is referred to comes first
const SECTIONS: { [S in SectionName]: Section<TableOf[S]> } = {
  snmp_profiles: {
    table: "snmp_profiles",
    label: "SNMP profiles",
    check: checkSnmpProfile,
    fields: SNMP_PROFILE_FIELDS,
    secretColumns: SNMP_SECRET_COLUMNS,
    refs: [],
  },
  credentials: {
    table: "credentials",
    label: "Credential profiles",
    check: checkCredential,
    fields: CREDENTIAL_FIELDS,
    secretColumns: CREDENTIAL_SECRET_COLUMNS,
    refs: [],
  },
  groups: {
    table: "switch_groups",
    label: "Groups",
    check: checkSwitchGroup,
    fields: GROUP_FIELDS,
    secretColumns: {},
    refs: [],
    list: { field: "users", relation: "users", target: "users" },
  },
  switches: {
    table: "switches",
    label: "Switches",
    check: checkSwitch,
    fields: SWITCH_FIELDS,
    secretColumns: {},
    refs: [
      { field: "snmp_profile", column: "snmp_profile_id", target: "snmp_profiles" },
      { field: "credentials_profile", column: "credentials_profile_id", target: "credentials" },
    ],
    list: { field: "groups", relation: "groups", target: "groups" },
  },
};
const ORDER = Object.keys(SECTIONS) as SectionName[];
const WHAT: Record<SectionName | "users", string> = {
  snmp_profiles: "SNMP profile",
  credentials: "credential profile",
  groups: "group",
  switches: "switch",
  users: "user",
};

/** one entry of the file, checked, waiting to be applied */
interface Planned {
  name: string;
  /** the stored row of this name (its columns by name), null when the entry is new */
  current: Input | null;
  columns: Record<string, unknown>;
  secrets: Record<string, string | null>;
  relations: { relation: Relation | "groups"; ids: number[]; field: string }[];
  /** column -> the referred name (lower case) or null */
  refs: { column: string; field: string; target: SectionName; name: string | null }[];
  /** a list of names resolved at apply time (a switch's groups) */
  names?: { relation: Relation | "groups"; field: string; target: SectionName; names: string[] };
}

const key = (name: string) => name.toLowerCase();

/** the stored rows of each section's table, by lower-case name */
type StoredRows = { [S in SectionName]: Map<string, Row<TableOf[S]>> };

/** an entry checked by its section's check, against the stored row of its name (null: a new one) */
function checkEntry<S extends SectionName>(
  s: S,
  stored: StoredRows,
  entry: Input,
  name: string | null,
  issues: Issues,
) {
  const current = name ? (stored[s].get(key(name)) ?? null) : null;
  return { current, checked: SECTIONS[s].check(entry, current, issues) };
}

export interface ImportTarget {
  repos: Pick<Repos, "inventory" | "users">;
  secrets: SecretBox;
}

/** Checks a parsed document and applies it; throws InventoryFileError listing every problem. */
export async function importInventory(target: ImportTarget, doc: unknown): Promise<ImportReport> {
  const problems: string[] = [];
  const sections = readSections(doc, problems);
  const inv = target.repos.inventory;

  // what the store holds, by lower-case name
  const byName = <R extends { name: string }>(rows: R[]) => new Map(rows.map((r): [string, R] => [key(r.name), r]));
  const stored: StoredRows = {
    snmp_profiles: byName(await inv.list("snmp_profiles")),
    credentials: byName(await inv.list("credentials")),
    groups: byName(await inv.list("switch_groups")),
    switches: byName(await inv.list("switches")),
  };
  const currentLists = {
    vlans: await inv.relationMap("vlans"),
    users: await inv.relationMap("users"),
    switchGroups: invert(await inv.relationMap("switches")),
  };
  // names the file defines, so references can point forward to them
  const defined = {} as Record<SectionName, Set<string>>;
  for (const s of ORDER)
    defined[s] = new Set(
      sections[s]
        .filter((e): e is Input => isObject(e) && typeof e.name === "string")
        .map((e) => key((e.name as string).trim())),
    );
  const known = (s: SectionName, name: string) => defined[s].has(key(name)) || stored[s].has(key(name));

  const plan = {} as Record<SectionName, Planned[]>;
  for (const s of ORDER) {
    const section = SECTIONS[s];
    plan[s] = [];
    const seen = new Map<string, number>();
    for (const [i, entry] of sections[s].entries()) {
      const place = `${s}[${i}]`;
      if (!isObject(entry)) {
        problems.push(`${place}: expected a mapping with at least a name`);
        continue;
      }
      const allowed = new Set([
        ...section.fields,
        ...section.refs.map((r) => r.field),
        ...(section.list ? [section.list.field] : []),
      ]);
      for (const k of Object.keys(entry)) if (!allowed.has(k)) problems.push(`${place}.${k}: unknown field`);

      const name = typeof entry.name === "string" ? entry.name.trim() : null;
      const issues = new Issues();
      const { current, checked } = checkEntry(s, stored, entry, name, issues);
      for (const p of issues.list) problems.push(`${place}.${p.field}: ${p.message}`);
      if (!name || issues.has("name")) continue;
      if (seen.has(key(name)))
        problems.push(`${place}.name: '${name}' is already used by ${s}[${seen.get(key(name))}]`);
      seen.set(key(name), i);

      const planned: Planned = {
        name,
        current,
        columns: checked.columns,
        secrets: checked.secrets,
        relations: [],
        refs: [],
      };
      for (const r of checked.relations) planned.relations.push({ ...r, field: r.relation });
      for (const ref of section.refs) {
        const v = entry[ref.field];
        if (v === undefined) continue;
        if (v !== null && typeof v !== "string")
          problems.push(`${place}.${ref.field}: expected the name of a ${WHAT[ref.target]} or null`);
        else if (v !== null && !known(ref.target, v))
          problems.push(`${place}.${ref.field}: no ${WHAT[ref.target]} named '${v}'`);
        else
          planned.refs.push({
            column: ref.column,
            field: ref.field,
            target: ref.target,
            name: v === null ? null : key(v),
          });
      }
      if (section.list && entry[section.list.field] !== undefined) {
        const { field, relation, target: listTarget } = section.list;
        const names = entry[field];
        if (!Array.isArray(names) || names.some((n) => typeof n !== "string")) {
          problems.push(`${place}.${field}: expected a list of ${WHAT[listTarget]} names`);
        } else if (listTarget === "users") {
          const ids: number[] = [];
          for (const n of names as string[]) {
            const user = await target.repos.users.findByUsername(n);
            if (user) ids.push(user.id);
            else problems.push(`${place}.${field}: no user named '${n}'`);
          }
          planned.relations.push({ relation, ids, field });
        } else {
          for (const n of names as string[])
            if (!known(listTarget, n)) problems.push(`${place}.${field}: no ${WHAT[listTarget]} named '${n}'`);
          planned.names = { relation, field, target: listTarget, names: (names as string[]).map(key) };
        }
      }
      plan[s].push(planned);
      if (s === "switches") {
        const rule = new Issues();
        checkProfileOfSwitch(entry, planned, stored, plan.credentials, rule);
        for (const p of rule.list) problems.push(`${place}.${p.field}: ${p.message}`);
      }
    }
  }
  if (problems.length) throw new InventoryFileError(problems);

  const report = {} as ImportReport;
  await inv.writeAll(async (w) => {
    const ids = {} as Record<SectionName, Map<string, number>>;
    for (const s of ORDER) ids[s] = new Map([...stored[s]].map(([k, r]) => [k, r.id]));
    for (const s of ORDER) {
      report[s] = { created: [], updated: [], unchanged: [] };
      for (const p of plan[s]) await applyOne(w, target.secrets, s, p, ids, currentLists, report[s]);
    }
  });
  return report;
}

/** a credential profile as the file leaves it: the stored row with what the file's entry gives */
function profileAfterImport(name: string, stored: StoredRows, credentials: Planned[]): ProfileFacts | null {
  const row = stored.credentials.get(key(name)) ?? null;
  const entry = credentials.find((p) => key(p.name) === key(name));
  if (!entry) return row ? profileFacts(row) : null;
  const secret = (field: string, column: "password_enc" | "private_key_enc") =>
    field in entry.secrets ? entry.secrets[field] !== null : (row?.[column] ?? null) !== null;
  const column = <T>(field: string, kept: T | undefined, fallback: T): T =>
    field in entry.columns ? (entry.columns[field] as T) : (kept ?? fallback);
  return {
    name: entry.name,
    username: column("username", row?.username, ""),
    // a new profile without a port gets the column's default, SSH's 22 (db/migrations.ts)
    port: column("port", row?.port, 22),
    password: secret("password", "password_enc"),
    privateKey: secret("private_key", "private_key_enc"),
  };
}

/**
 * The admin API's profile rule (app/admin/switches.ts checkConnectorProfile) for a switch
 * of the file, with its profile as the file leaves it: for a new switch, or one whose
 * connector or credential profile the file gives.
 */
function checkProfileOfSwitch(
  entry: Input,
  planned: Planned,
  stored: StoredRows,
  credentials: Planned[],
  issues: Issues,
): void {
  const current = stored.switches.get(key(planned.name)) ?? null;
  const ref = planned.refs.find((r) => r.field === "credentials_profile");
  if (current && entry.connector_type === undefined && !ref) return;
  if (entry.credentials_profile !== undefined && !ref) return; // a bad reference, already a problem
  // the file's number even when the check refused it (no driver yet): the profile is still needed
  const connector = entry.connector_type !== undefined ? entry.connector_type : (current?.connector_type ?? 0);
  if (typeof connector !== "number" || !isApiConnector(connector)) return;
  let profile: ProfileFacts | null = null;
  if (ref) profile = ref.name === null ? null : profileAfterImport(ref.name, stored, credentials);
  else if (current?.credentials_profile_id != null) {
    const row = [...stored.credentials.values()].find((c) => c.id === current.credentials_profile_id);
    profile = row ? profileAfterImport(row.name, stored, credentials) : null;
  }
  checkConnectorProfile(connector, profile, issues);
}

async function applyOne<S extends SectionName>(
  w: InventoryWriter,
  box: SecretBox,
  s: S,
  p: Planned,
  ids: Record<SectionName, Map<string, number>>,
  currentLists: { vlans: Map<number, number[]>; users: Map<number, number[]>; switchGroups: Map<number, number[]> },
  out: SectionReport,
): Promise<void> {
  const section = SECTIONS[s];
  const columns: Input = { ...p.columns };
  for (const r of p.refs) columns[r.column] = r.name === null ? null : ids[r.target].get(r.name)!;
  const relations = [...p.relations];
  if (p.names)
    relations.push({
      relation: p.names.relation,
      field: p.names.field,
      ids: p.names.names.map((n) => ids[p.names!.target].get(n)!),
    });
  const norm = (list: number[]) => [...new Set(list)].sort((a, b) => a - b);

  if (!p.current) {
    const values = { ...columns, ...seal(section.secretColumns, p.secrets, box) };
    // the columns are the ones the section's check gave (its own, the name required on
    // create) with the references and sealed secrets the section declares; the others
    // take the table's defaults
    ids[s].set(key(p.name), await w.create(section.table, values as Insertable<Database[TableOf[S]]>, relations));
    out.created.push(p.name);
    return;
  }
  const cur = p.current;
  const changedFields: string[] = [];
  const changedColumns: Input = {};
  for (const [col, v] of Object.entries(columns)) {
    if (cur[col] === v) continue;
    changedColumns[col] = v;
    changedFields.push(p.refs.find((r) => r.column === col)?.field ?? col);
  }
  for (const [field, plain] of Object.entries(p.secrets)) {
    const stored = cur[section.secretColumns[field]] as string | null;
    if (sameSecret(box, stored, plain)) continue;
    Object.assign(changedColumns, seal(section.secretColumns, { [field]: plain }, box));
    changedFields.push(field);
  }
  const id = cur.id as number;
  const before = (relation: string): number[] =>
    relation === "groups"
      ? (currentLists.switchGroups.get(id) ?? [])
      : ((relation === "vlans" ? currentLists.vlans : currentLists.users).get(id) ?? []);
  const changedRelations = relations.filter(
    (r) => JSON.stringify(norm(r.ids)) !== JSON.stringify(norm(before(r.relation))),
  );
  changedFields.push(...changedRelations.map((r) => r.field));
  if (!changedFields.length) {
    out.unchanged.push(p.name);
    return;
  }
  await w.update(section.table, id, changedColumns as Updateable<Database[TableOf[S]]>, changedRelations);
  out.updated.push({ name: p.name, fields: changedFields });
}

/** is the stored (encrypted) secret the same as the file's plain one */
function sameSecret(box: SecretBox, stored: string | null, plain: string | null): boolean {
  if (stored === null || plain === null) return stored === plain;
  try {
    return box.decrypt(stored) === plain;
  } catch {
    // stored under another key: write it again under the current one
    return false;
  }
}

function isObject(v: unknown): v is Input {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function invert(groupToSwitches: Map<number, number[]>): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const [g, members] of groupToSwitches) for (const sw of members) out.set(sw, [...(out.get(sw) ?? []), g]);
  return out;
}

function readSections(doc: unknown, problems: string[]): Record<SectionName, unknown[]> {
  const out = Object.fromEntries(ORDER.map((s) => [s, [] as unknown[]])) as Record<SectionName, unknown[]>;
  if (doc === null || doc === undefined) {
    problems.push("the file is empty");
    return out;
  }
  if (!isObject(doc)) {
    problems.push(`the file must be a mapping with the sections ${ORDER.join(", ")}`);
    return out;
  }
  for (const [k, v] of Object.entries(doc)) {
    if (!(ORDER as string[]).includes(k)) problems.push(`${k}: unknown section (expected ${ORDER.join(", ")})`);
    else if (v === null) continue;
    else if (!Array.isArray(v)) problems.push(`${k}: expected a list`);
    else out[k as SectionName] = v;
  }
  return out;
}

/** The report for people: per kind what was created, updated (which fields) and left unchanged. */
export function formatReport(report: ImportReport): string {
  const lines: string[] = [];
  let changes = 0;
  for (const s of ORDER) {
    const r = report[s];
    changes += r.created.length + r.updated.length;
    lines.push(
      `${SECTIONS[s].label}: ${r.created.length} created, ${r.updated.length} updated, ${r.unchanged.length} unchanged`,
    );
    if (r.created.length) lines.push(`  created: ${r.created.join(", ")}`);
    for (const u of r.updated) lines.push(`  updated: ${u.name} (${u.fields.join(", ")})`);
  }
  lines.push(changes ? `${changes} change${changes === 1 ? "" : "s"} applied.` : "Nothing changed.");
  return lines.join("\n");
}

/** Parses YAML text; syntax errors carry their line and column. */
export function parseInventoryYaml(text: string): unknown {
  const doc = YAML.parseDocument(text);
  if (doc.errors.length) throw new InventoryFileError(doc.errors.map((e) => `YAML: ${e.message.split("\n")[0]}`));
  return doc.toJS();
}

/** `switchdesk inventory import FILE.yaml`: the report, or an error naming the file and every problem */
export async function importInventoryFile(config: Config, file: string): Promise<string> {
  let text: string;
  try {
    text = await fs.promises.readFile(file, "utf8");
  } catch (e) {
    const missing = (e as NodeJS.ErrnoException).code === "ENOENT";
    throw new Error(`cannot read ${file}: ${missing ? "no such file" : (e as Error).message}`, { cause: e });
  }
  try {
    const doc = parseInventoryYaml(text);
    const report = await withCore(config, (core) => importInventory(core, doc));
    return `${file}:\n${formatReport(report)}`;
  } catch (e) {
    if (e instanceof InventoryFileError) throw new Error(`${file}: ${e.message}`, { cause: e });
    throw e;
  }
}
