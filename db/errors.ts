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
