/**
 * Command lines for a Linux host, run by the login shell of the SSH user. Every value
 * is checked (safe-values.ts, plus the kernel's rules for interface names) and then
 * single-quoted for a POSIX shell, where nothing inside single quotes is special: a
 * quote in the value ends the quoting, is written escaped, and the quoting starts again.
 */
import { checkText, UnsafeValue } from "../../ssh/safe-values";

/** IFALIASZ is 256 bytes with the terminating zero */
export const LINUX_MAX_ALIAS_BYTES = 255;

/** 'value' for a POSIX shell */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * An interface name as the kernel takes it (at most 15 bytes, no "/", ":" or blanks,
 * not "." or ".."), further kept to letters, digits and "_.-" and not starting with "-"
 * so it can never read as an option of `ip`.
 */
export function linuxInterface(value: unknown): string {
  const name = checkText(value, { what: "interface name", maxLength: 15, bytes: true, required: true });
  if (!/^[A-Za-z0-9_.][A-Za-z0-9_.-]*$/.test(name) || name === "." || name === "..") {
    throw new UnsafeValue("interface name", "is not a Linux interface name");
  }
  return name;
}

export function linuxAlias(value: unknown): string {
  return checkText(value, { what: "interface description", maxLength: LINUX_MAX_ALIAS_BYTES, bytes: true });
}

export const linuxCommands = {
  hostname: "uname -n -r -m",
  links: "ip -j -d link show",
  addresses: "ip -j addr show",
  /** every link with its details (as `links`) and its addresses, in one list */
  linksWithAddresses: "ip -j -d addr show",
  neighbours: "ip -j neigh show",
  link: (dev: string) => `ip -j -d link show dev ${shellQuote(linuxInterface(dev))}`,
  linkAddresses: (dev: string) => `ip -j addr show dev ${shellQuote(linuxInterface(dev))}`,
  setState: (dev: string, up: boolean) => `ip link set dev ${shellQuote(linuxInterface(dev))} ${up ? "up" : "down"}`,
  /** an empty alias removes it */
  setAlias: (dev: string, text: string) =>
    `ip link set dev ${shellQuote(linuxInterface(dev))} alias ${shellQuote(linuxAlias(text))}`,
};
