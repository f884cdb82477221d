/**
 * One transaction for several repository calls: inside one, the repositories' own
 * transactions join it instead of opening another (Kysely does not nest them).
 */
import type { Kysely } from "kysely";
import type { Database } from "./schema";

export function atomic<T>(db: Kysely<Database>, fn: (tx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}
