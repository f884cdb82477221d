/**
 * Failed logins per throttle key, kept in the database (see migration 0002): every
 * process and every restart sees the same counts. Keys are stored as SHA-256 hashes, so
 * a row has a fixed size whatever the username was.
 */
import type { Kysely } from "kysely";
import type { Database } from "./schema";
import { hashKey } from "./tokens";

export class LoginFailureRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Times (ms) of the failures of each key since `sinceMs`, oldest first. */
  async recent(keys: string[], sinceMs: number): Promise<Map<string, number[]>> {
    const out = new Map<string, number[]>(keys.map((k) => [k, []]));
    if (!keys.length) return out;
    const byHash = new Map(keys.map((k) => [hashKey(k), k]));
    const rows = await this.db
      .selectFrom("login_failures")
      .select(["key_hash", "time"])
      .where("key_hash", "in", [...byHash.keys()])
      .where("time", ">", new Date(sinceMs).toISOString())
      .orderBy("time")
      .execute();
    for (const r of rows) out.get(byHash.get(r.key_hash)!)!.push(Date.parse(r.time));
    return out;
  }

  async add(keys: string[], atMs: number): Promise<void> {
    const time = new Date(atMs).toISOString();
    await this.db.insertInto("login_failures").values(keys.map((k) => ({ key_hash: hashKey(k), time }))).execute();
  }

  async clear(key: string): Promise<number> {
    const r = await this.db.deleteFrom("login_failures").where("key_hash", "=", hashKey(key)).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /** Deletes every failure older than `beforeMs`; returns how many. */
  async sweep(beforeMs: number): Promise<number> {
    const r = await this.db.deleteFrom("login_failures").where("time", "<=", new Date(beforeMs).toISOString()).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  async count(): Promise<number> {
    const r = await this.db.selectFrom("login_failures").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
    return Number(r.n);
  }
}
