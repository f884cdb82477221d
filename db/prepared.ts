/**
 * Statements of every call built and compiled once per database handle: Kysely builds an
 * operation tree and compiles it to SQL text each time a query runs, which cost more CPU
 * than mysql2's own work for the few statements every API call sends (the token, the
 * group and device pair, the SNMP profile). A prepared statement is built once with
 * stand-ins for its arguments; each run sends the same SQL text with the arguments put
 * where the stand-ins were, through the same executor (plugins, the statement tally and
 * the guarded driver of connect.ts), so what reaches the database does not change.
 */
import { createQueryId, type Compilable, type CompiledQuery, type Kysely } from "kysely";

/** A stand-in for the n-th argument: a string nobody sends, told apart by identity of text. */
const STAND_IN = "\u0000switchdesk-argument-";

/**
 * A statement of `arity` arguments. `build` receives stand-ins in the arguments' places
 * (typed as the arguments, so the builder checks as usual) and must use each one as a
 * plain value (`where(col, "=", arg)`), never in a list or an expression whose SQL
 * depends on the value: the SQL is compiled once for all values.
 */
export class Prepared<Db, Args extends unknown[], Row> {
  private readonly compiled = new WeakMap<Kysely<Db>, { query: CompiledQuery<Row>; slots: (number | null)[] }>();

  constructor(
    private readonly arity: Args["length"],
    private readonly build: (db: Kysely<Db>, ...args: Args) => Compilable<Row>,
  ) {}

  private compile(db: Kysely<Db>) {
    let c = this.compiled.get(db);
    if (c) return c;
    const standIns = Array.from({ length: this.arity }, (_, i) => `${STAND_IN}${i}`);
    const query = this.build(db, ...(standIns as Args)).compile();
    // where each parameter comes from: an argument (its number) or the statement itself (null: kept)
    const slots = query.parameters.map((p) =>
      typeof p === "string" && p.startsWith(STAND_IN) ? Number(p.slice(STAND_IN.length)) : null,
    );
    const used = new Set(slots.filter((s): s is number => s !== null));
    if (used.size !== standIns.length)
      throw new Error(`a prepared statement used ${used.size} of its ${standIns.length} arguments`);
    c = { query, slots };
    this.compiled.set(db, c);
    return c;
  }

  /** The statement's rows for these arguments. */
  async rows(db: Kysely<Db>, ...args: Args): Promise<Row[]> {
    const { query, slots } = this.compile(db);
    const parameters = slots.map((s, i) => (s === null ? query.parameters[i] : args[s]));
    const result = await db.executeQuery<Row>({ ...query, parameters, queryId: createQueryId() });
    return result.rows;
  }
}
