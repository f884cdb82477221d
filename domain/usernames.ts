/**
 * What a username may be, and the one form a typed login name is brought to: the same
 * rules for names an administrator gives and names a directory login stores.
 */

/** the users table's column size */
export const USERNAME_MAX = 150;

/** letters, digits and @ . + - _ (ASCII: the same person has one spelling) */
export const USERNAME_CHARS = /^[\w.@+-]+$/;

export const USERNAME_RULE = `up to ${USERNAME_MAX} letters, digits and @/./+/-/_ only`;

export function isValidUsername(name: string): boolean {
  return name.length > 0 && name.length <= USERNAME_MAX && USERNAME_CHARS.test(name);
}

/**
 * A name as typed at a login, in its one form: Unicode NFKC (full-width letters become
 * ASCII ones), spaces around it removed, lower case. Stored usernames compare without
 * regard to case, so this form finds the same account, and it is the throttle's key.
 */
export function loginName(typed: string): string {
  return typed.normalize("NFKC").trim().toLowerCase();
}
