/**
 * The admin API speaks OpenL2M 4.2.6's field names and numbers (its admin documents); the
 * inventory keeps switchdesk's own (the columns, the YAML import). An ApiInput turns the
 * body of an admin call into the inventory's input before the kind's one check runs:
 * renamed fields (switchdesk's earlier name still taken, never both), values in OpenL2M's
 * numbers, and OpenL2M fields switchdesk has no use for (taken only when empty). Every
 * problem is reported under the name the caller used.
 */
import type { Issue, Issues } from "./fields";

type Input = Record<string, unknown>;

/** a converter's answer for a value it cannot take: the reason */
export class Refused {
  constructor(readonly why: string) {}
}

export class ApiInput {
  /** the body with the inventory's names and values */
  readonly out: Input;
  /** inventory name -> the name the caller used (or the API's name when it sent neither) */
  private readonly names = new Map<string, string>();

  constructor(
    private readonly body: Input,
    readonly issues: Issues,
  ) {
    this.out = { ...body };
  }

  has(field: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.body, field);
  }

  /** the name to report a problem of an inventory field under */
  nameOf(field: string): string {
    return this.names.get(field) ?? field;
  }

  /** `api` (OpenL2M's name) and `former` (switchdesk's earlier one) both stand for `field` */
  rename(api: string, field: string, former: string = field): void {
    this.names.set(field, api);
    const useApi = this.has(api);
    const useFormer = former !== api && this.has(former);
    if (useApi && useFormer) {
      this.issues.invalid(api, `give either '${api}' or '${former}', not both`);
      delete this.out[api];
      delete this.out[former];
      return;
    }
    if (useFormer) {
      this.names.set(field, former);
      if (former !== field) {
        this.out[field] = this.body[former];
        delete this.out[former];
      }
    } else if (useApi && api !== field) {
      this.out[field] = this.body[api];
      delete this.out[api];
    }
  }

  /** the value of an inventory field, converted (a Refused answer is a problem under the caller's name) */
  convert(field: string, fn: (v: unknown) => unknown): void {
    if (!(field in this.out)) return;
    const v = fn(this.out[field]);
    if (v instanceof Refused) {
      this.issues.invalid(this.nameOf(field), v.why);
      delete this.out[field];
    } else {
      this.out[field] = v;
    }
  }

  /** null stands for "" (OpenL2M's nullable text columns) */
  nullToEmpty(field: string): void {
    if (this.out[field] === null) this.out[field] = "";
  }

  /** an OpenL2M field switchdesk keeps no value for: taken (and dropped) only when `fits` */
  onlyWhen(api: string, fits: (v: unknown) => boolean, why: string): void {
    if (!this.has(api)) return;
    if (!fits(this.body[api])) this.issues.invalid(api, why);
    delete this.out[api];
  }

  /** a value of OpenL2M's taken for the call only (not stored): undefined when absent or refused */
  take<T>(api: string, fn: (v: unknown) => T | Refused): T | undefined {
    if (!this.has(api)) return undefined;
    delete this.out[api];
    const v = fn(this.body[api]);
    if (v instanceof Refused) return void this.issues.invalid(api, v.why);
    return v;
  }

  /** the check's problems, under the caller's names, after the ones found here */
  report(checkIssues: readonly Issue[]): void {
    for (const i of checkIssues) this.issues.list.push({ ...i, field: this.nameOf(i.field) });
  }
}

export const isEmpty = (v: unknown): boolean =>
  v === null || v === "" || (Array.isArray(v) && v.length === 0) || v === undefined;

/** an integer from JSON or a form's digits; anything else stays as it is for the check to refuse */
export function integerOf(v: unknown): unknown {
  if (typeof v === "string" && /^\s*-?\d{1,9}\s*$/.test(v)) return Number(v);
  return v;
}

/**
 * One of OpenL2M's numbered choices (its constants): the number (or its digits) gives the
 * name; a name of the choices is taken as it is; anything else is refused with the list.
 */
export function numbered<N extends string>(choices: Record<number, N | null>, what: string) {
  const list = Object.entries(choices)
    .map(([n, name]) => `${n} (${name ?? "none"})`)
    .join(", ");
  return (v: unknown): N | null | Refused => {
    const n = integerOf(v);
    if (typeof n === "number" && Object.prototype.hasOwnProperty.call(choices, n)) return choices[n];
    if (typeof v === "string" && Object.values(choices).includes(v as N)) return v as N;
    if (v === null || v === "") return null;
    return new Refused(`expected ${what} ${list}`);
  };
}
