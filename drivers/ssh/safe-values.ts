/**
 * The checks every value passes before it is put on a command line, whatever the
 * dialect: a line break would end the command and start another one, control
 * characters are keystrokes to a terminal (tab completes, Ctrl-Z ends configuration),
 * bidirectional controls make a logged command read differently from what ran, and
 * lone surrogates have no encoding at all. Dialects add their own rules and quoting on
 * top (cisco-ios/commands.ts, linux/commands.ts).
 *
 * Messages name the value's role, never the value: it may be exactly the text that
 * should not reach a log.
 */
import { NotSupported } from "../../model/failures";

/** A value the command line cannot take as it is; nothing was sent to the device. */
export class UnsafeValue extends NotSupported {
  constructor(what: string, reason: string) {
    super(`The ${what} cannot be sent over the command line: it ${reason}`);
  }
}

const LINE_BREAK = /[\r\n\u0085\u2028\u2029]/;
/** C0, DEL and C1 (Unicode's Cc) */
const CONTROL = /\p{Cc}/u;
// Arabic letter mark, LRM/RLM, embeddings and overrides, isolates
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export interface TextRules {
  /** the value's role in messages: "interface description", "VLAN name" */
  what: string;
  /** longest value, in characters (code points), or in UTF-8 bytes with `bytes` */
  maxLength: number;
  bytes?: boolean;
  /** "" is not a value (an interface name, unlike a description that clears) */
  required?: boolean;
}

/** Returns `value` when it is safe for any command line; throws UnsafeValue otherwise. */
export function checkText(value: unknown, rules: TextRules): string {
  if (typeof value !== "string") throw new UnsafeValue(rules.what, "is not text");
  if (rules.required && value.length === 0) throw new UnsafeValue(rules.what, "is empty");
  if (LINE_BREAK.test(value)) throw new UnsafeValue(rules.what, "contains a line break");
  if (CONTROL.test(value)) throw new UnsafeValue(rules.what, "contains a control character");
  if (BIDI_CONTROL.test(value)) throw new UnsafeValue(rules.what, "contains a bidirectional-text control character");
  if (LONE_SURROGATE.test(value)) throw new UnsafeValue(rules.what, "contains an unpaired surrogate");
  const length = rules.bytes ? Buffer.byteLength(value, "utf8") : [...value].length;
  if (length > rules.maxLength) {
    throw new UnsafeValue(rules.what, `is longer than ${rules.maxLength} ${rules.bytes ? "bytes" : "characters"}`);
  }
  return value;
}

/** what both unquoted command lines take: printable ASCII */
export const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Text that is the rest of a command line with no quoting (IOS and EOS descriptions and
 * VLAN names): safe for any command line, printable ASCII only (the terminal encoding is
 * not defined), no "?" (the line's help: `help` says what the command line does with it),
 * and no surrounding blanks (the command line drops them, so the read-back would differ).
 * Refused, never escaped.
 */
export function checkRestOfLine(value: unknown, rules: TextRules & { cli: string; help: string }): string {
  const text = checkText(value, rules);
  if (!PRINTABLE_ASCII.test(text)) throw new UnsafeValue(rules.what, "contains characters other than printable ASCII");
  if (text.includes("?"))
    throw new UnsafeValue(rules.what, `contains '?', which the ${rules.cli} command line ${rules.help}`);
  if (text !== text.trim()) throw new UnsafeValue(rules.what, `begins or ends with a blank, which ${rules.cli} drops`);
  return text;
}

/** A VLAN id of 802.1Q (1..4094) as a whole number. */
export function checkVlanId(value: unknown): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > 4094) {
    throw new UnsafeValue("VLAN id", "is not a whole number from 1 to 4094");
  }
  return value;
}
