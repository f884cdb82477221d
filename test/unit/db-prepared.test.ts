import { sql, type Kysely } from "kysely";
import { openStore, type Store } from "../../db/connect";
import { Prepared } from "../../db/prepared";
import type { Database } from "../../db/schema";

type Db = Database & { items: { id: number; name: string; kind: string } };

describe("Prepared: a statement compiled once, run with new arguments each time", () => {
  let store: Store;
  let db: Kysely<Db>;
  beforeAll(async () => {
    store = await openStore("sqlite::memory:");
    db = store.db.withTables<{ items: { id: number; name: string; kind: string } }>();
    await sql`CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, kind TEXT NOT NULL)`.execute(db);
    await db
      .insertInto("items")
      .values([
        { id: 1, name: "a", kind: "port" },
        { id: 2, name: "b", kind: "vlan" },
        { id: 3, name: "c", kind: "port" },
      ])
      .execute();
  });
  afterAll(() => store.close());

  it("answers each run with that run's arguments, keeping the statement's own values", async () => {
    let built = 0;
    // "port" is the statement's own value; the id is the argument
    const byIdOfKind = new Prepared(1, (d: Kysely<Db>, id: number) => {
      built++;
      return d.selectFrom("items").select(["id", "name"]).where("kind", "=", "port").where("id", "=", id);
    });
    expect(await byIdOfKind.rows(db, 1)).toEqual([{ id: 1, name: "a" }]);
    expect(await byIdOfKind.rows(db, 2)).toEqual([]);
    expect(await byIdOfKind.rows(db, 3)).toEqual([{ id: 3, name: "c" }]);
    expect(built).toBe(1);
  });

  it("puts several arguments in their own places, whatever order the SQL uses them in", async () => {
    const between = new Prepared(2, (d: Kysely<Db>, high: number, low: number) =>
      d.selectFrom("items").select("id").where("id", ">=", low).where("id", "<=", high).orderBy("id"),
    );
    expect((await between.rows(db, 3, 2)).map((r) => r.id)).toEqual([2, 3]);
    expect((await between.rows(db, 1, 1)).map((r) => r.id)).toEqual([1]);
  });

  it("counts its statements like any other (the store's tally)", async () => {
    const all = new Prepared(1, (d: Kysely<Db>, kind: string) =>
      d.selectFrom("items").select("id").where("kind", "=", kind),
    );
    const before = store.statements.reads;
    expect(await all.rows(db, "vlan")).toEqual([{ id: 2 }]);
    expect(store.statements.reads - before).toBe(1);
  });
});
