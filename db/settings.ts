/** Settings of the database itself, by name (the secret key's check value). */
import type { Kysely } from "kysely";
import type { Database } from "./schema";

export class SettingsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async get(name: string): Promise<string | null> {
    const row = await this.db.selectFrom("settings").select("value").where("name", "=", name).executeTakeFirst();
    return row ? row.value : null;
  }

  /** Stores a value unless one is there already (the first writer wins); the value now stored. */
  async putOnce(name: string, value: string): Promise<string> {
    try {
      await this.db.insertInto("settings").values({ name, value }).execute();
      return value;
    } catch (e) {
      const stored = await this.get(name);
      if (stored === null) throw e;
      return stored;
    }
  }
}
