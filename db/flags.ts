/**
 * The store's yes/no columns (type Bool in schema.ts): written as 0 or 1, read back as
 * whatever the driver hands over (a number from SQLite and MariaDB, "1" or true from some
 * drivers and settings). Every reader turns a row's flag into a boolean here, so no two
 * of them can disagree (`!!"0"` would be true).
 */

/** A stored flag as a boolean: 1, "1" and true are set; anything else is not. */
export const bool = (v: unknown): boolean => v === 1 || v === true || v === "1";

/** A boolean as the stored flag. */
export const bit = (v: boolean): number => (v ? 1 : 0);
