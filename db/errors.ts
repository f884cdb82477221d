/** A unique index refused a row (SQLite and MariaDB spell this differently). */
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; errno?: number; message?: string };
  return (
    err?.code === "SQLITE_CONSTRAINT_UNIQUE" ||
    err?.code === "SQLITE_CONSTRAINT_PRIMARYKEY" ||
    err?.code === "ER_DUP_ENTRY" ||
    err?.errno === 1062
  );
}

/** A foreign key refused a row: it names something that does not exist. */
export function isForeignKeyViolation(e: unknown): boolean {
  const err = e as { code?: string; errno?: number };
  return err?.code === "SQLITE_CONSTRAINT_FOREIGNKEY" || err?.errno === 1452 || err?.errno === 1451;
}

/**
 * Another writer won a race for the same rows: a deadlock (1213, what a Galera cluster
 * answers when a commit fails certification), a lock wait that timed out (1205), or
 * SQLite's busy database. The statement did nothing; trying again later is safe.
 */
export function isWriteConflict(e: unknown): boolean {
  const err = e as { code?: string; errno?: number };
  return (
    err?.errno === 1213 ||
    err?.errno === 1205 ||
    err?.code === "ER_LOCK_DEADLOCK" ||
    err?.code === "ER_LOCK_WAIT_TIMEOUT" ||
    err?.code === "SQLITE_BUSY" ||
    err?.code === "SQLITE_BUSY_SNAPSHOT"
  );
}

/**
 * A write that several instances make to the same row at once (a usage counter, a last-use
 * time): tried again a few times when another writer won the race (on Galera a commit that
 * failed certification), with a short random pause. Bounded: 4 tries.
 */
export async function retryOnConflict<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (e) {
      if (!isWriteConflict(e) || attempt >= 4) throw e;
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * attempt));
    }
  }
}
