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

/**
 * The database could not be used at all: the server is down or unreachable, refused the
 * connection (too many, shutting down, a Galera node not ready), a connection was lost,
 * no connection was free in time, or SQLite's file stayed locked or could not be opened
 * or read. Nothing about the request was wrong and nothing was stored; the same call can
 * succeed later. The original error's code and errno stay readable (`isWriteConflict`
 * still knows a busy SQLite database).
 */
export class DatabaseUnavailable extends Error {
  readonly code?: string;
  readonly errno?: number;
  constructor(
    message: string,
    readonly cause?: unknown,
  ) {
    super(message);
    this.name = "DatabaseUnavailable";
    const err = cause as { code?: unknown; errno?: unknown } | undefined;
    if (typeof err?.code === "string") this.code = err.code;
    if (typeof err?.errno === "number") this.errno = err.errno;
  }
}

/** network and driver codes (mysql2, Node's sockets) of a server that cannot be used now */
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "PROTOCOL_CONNECTION_LOST",
  "PROTOCOL_SEQUENCE_TIMEOUT",
  "PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR",
  "ER_CON_COUNT_ERROR",
  "ER_TOO_MANY_USER_CONNECTIONS",
  "ER_SERVER_SHUTDOWN",
  "ER_CONNECTION_KILLED",
]);

/**
 * MariaDB server errors of the same kind: 1040 too many connections, 1053 shutdown in
 * progress, 1203 too many connections of the user, 1927 connection killed (at shutdown),
 * 1047 a Galera node not ready ("WSREP has not yet prepared node for application use").
 */
const UNAVAILABLE_ERRNOS = new Set([1040, 1047, 1053, 1203, 1927]);

/** SQLite: still locked after the busy timeout, the file cannot be opened, read or written */
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|CANTOPEN|IOERR|FULL|PROTOCOL|NOTADB)(_|$)/;

/** Whether an error means the database cannot be used now (see DatabaseUnavailable). */
export function isDatabaseUnavailable(e: unknown): boolean {
  if (e instanceof DatabaseUnavailable) return true;
  const err = e as { code?: unknown; errno?: unknown; fatal?: unknown } | null;
  if (!err || typeof err !== "object") return false;
  if (typeof err.code === "string" && (UNAVAILABLE_CODES.has(err.code) || SQLITE_UNAVAILABLE.test(err.code)))
    return true;
  if (
    typeof err.errno === "number" &&
    UNAVAILABLE_ERRNOS.has(err.errno) &&
    typeof err.code === "string" &&
    err.code.startsWith("ER_")
  )
    return true;
  // mysql2 marks the errors after which a connection is dead as fatal
  return err.fatal === true;
}

/** The error as DatabaseUnavailable when it is one of those, else unchanged. */
export function classifyDatabaseError(e: unknown): unknown {
  if (e instanceof DatabaseUnavailable || !isDatabaseUnavailable(e)) return e;
  const err = e as { code?: string; message?: string };
  return new DatabaseUnavailable(`database unavailable (${err.code ?? "fatal"}): ${err.message ?? String(e)}`, e);
}
