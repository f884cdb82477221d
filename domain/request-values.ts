/**
 * Rules for the values a request carries: on/off words, the save word, integers, VLAN
 * ids, interface descriptions and VLAN names. A form sends every value as a string and
 * JSON may send numbers or booleans, so each parser accepts both and answers with the
 * contract's text on failure.
 */
import { Failure, Result, failure, success } from "./result";
import * as msg from "./messages";

/** state / poe_state: these mean up/enable (docs/api-decisions.md section 1); anything else means down. */
export const ON_VALUES: readonly string[] = ["on", "enabled", "enable", "yes", "y", "1", "true"];
/** save: the set of the original API, which deliberately lacks "true". */
export const SAVE_VALUES: readonly string[] = ["on", "enabled", "enable", "yes", "y", "1"];

export const VLAN_ID_MIN = 1;
export const VLAN_ID_MAX = 4094;
export const DEFAULT_MAX_DESCRIPTION_LENGTH = 64;
export const DEFAULT_MAX_VLAN_NAME_LENGTH = 32;

/** C0, DEL, C1 (Unicode's Cc, which holds NEL U+0085), LINE and PARAGRAPH SEPARATOR. */
const CONTROL_CHARACTER = /[\p{Cc}\u2028\u2029]/u;
/** the same, less tab, line feed and carriage return: for texts of several lines */
const CONTROL_BUT_LINES = /[^\P{Cc}\t\n\r]|[\u2028\u2029]/u;
/**
 * Unicode's bidirectional controls: the marks (U+061C, U+200E, U+200F), embeddings and
 * overrides (U+202A..U+202E) and isolates (U+2066..U+2069). They make a text display in
 * another order than it is stored ("Trojan Source"), so a port description or a group
 * name could show one thing to a person and hold another.
 */
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/** a UTF-16 surrogate without its partner: no character at all, and not valid UTF-8 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/**
 * Blanks stripped around texts: Unicode space separators only. Tabs and line breaks are
 * control characters and are refused rather than silently dropped, so a value that
 * would have reached a device command line with a line break never passes unnoticed.
 */
const SURROUNDING_BLANKS = /^\p{Zs}+|\p{Zs}+$/gu;
const INTEGER_TEXT = /^-?\d{1,15}$/;

function isAbsent(value: unknown): boolean {
  return value === undefined || value === null;
}

/** A scalar as the text a form would have sent; null for objects and arrays. */
function scalarText(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "boolean") return String(value);
  return null;
}

/** A text parameter that may also arrive as a JSON number; null for anything else. */
function textOrNumber(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return null;
}

function missingOrInvalid(value: unknown, reason: string): Failure {
  const blank = isAbsent(value) || (typeof value === "string" && value.trim() === "");
  return failure(400, blank ? "missing_parameter" : "invalid_parameter", reason);
}

export function isOnValue(value: unknown): boolean {
  const text = scalarText(value);
  return text !== null && ON_VALUES.includes(text.trim().toLowerCase());
}

export function isSaveValue(value: unknown): boolean {
  const text = scalarText(value);
  return text !== null && SAVE_VALUES.includes(text.trim().toLowerCase());
}

/** `state` or `poe_state`: true = up/enable. */
export function parseOnOff(value: unknown, name: string): Result<boolean> {
  const text = scalarText(value);
  if (text === null || text.trim() === "") return missingOrInvalid(value, msg.missingParameter(name));
  return success(isOnValue(text));
}

/** `save`: only a value of the save set asks for a save. */
export function parseSave(value: unknown): Result<true> {
  const text = scalarText(value);
  if (text === null || text.trim() === "") return missingOrInvalid(value, msg.SAVE_MISSING);
  if (!isSaveValue(text)) return failure(400, "invalid_parameter", msg.NO_SAVE_REQUESTED);
  return success(true);
}

/**
 * An integer from a JSON number or a string of digits (optional minus). Strict: "10a",
 * "1.5", " 10", "" and true are not integers. null when it is not one.
 */
export function parseInteger(value: unknown): number | null {
  if (typeof value === "number") return Number.isSafeInteger(value) ? value + 0 : null;
  if (typeof value !== "string" || !INTEGER_TEXT.test(value)) return null;
  const parsed = Number(value);
  return parsed === 0 ? 0 : parsed; // no -0
}

export function isVlanId(id: number): boolean {
  return Number.isInteger(id) && id >= VLAN_ID_MIN && id <= VLAN_ID_MAX;
}

/** `vlan` of the interface endpoint; whether it may be used is a device check. */
export function parseUntaggedVlan(value: unknown): Result<number> {
  const vlan = parseInteger(value);
  if (vlan === null) return missingOrInvalid(value, msg.missingNumericParameter("vlan"));
  return success(vlan);
}

/** What makes a text unfit to store or send: see textFault(). */
export type TextFault = "control" | "bidi" | "surrogate";

/**
 * The one check of every free text the service accepts (port descriptions, VLAN names,
 * and every text field of the admin API): control characters, bidirectional controls
 * and lone surrogates are refused. `lines` lets tab, line feed and carriage return pass,
 * for the few fields that hold several lines (comments, a private key). null: fine.
 */
export function textFault(text: string, opts: { lines?: boolean } = {}): TextFault | null {
  if (LONE_SURROGATE.test(text)) return "surrogate";
  if (BIDI_CONTROL.test(text)) return "bidi";
  if ((opts.lines ? CONTROL_BUT_LINES : CONTROL_CHARACTER).test(text)) return "control";
  return null;
}

/** Control characters, bidirectional controls or lone surrogates: never sent to a device. */
export function hasControlCharacter(text: string): boolean {
  return textFault(text) !== null;
}

/** Length in bytes of UTF-8, which is what devices count. */
export function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** The longest text a device takes, in characters and in bytes of UTF-8. */
export interface TextLimits {
  characters: number;
  bytes: number;
}

export function stripBlanks(text: string): string {
  return text.replace(SURROUNDING_BLANKS, "");
}

/** Length as people count it: code points, not UTF-16 units. */
export function textLength(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

const DEFAULT_DESCRIPTION_LIMITS: TextLimits = {
  characters: DEFAULT_MAX_DESCRIPTION_LENGTH,
  bytes: DEFAULT_MAX_DESCRIPTION_LENGTH,
};
const DEFAULT_VLAN_NAME_LIMITS: TextLimits = {
  characters: DEFAULT_MAX_VLAN_NAME_LENGTH,
  bytes: DEFAULT_MAX_VLAN_NAME_LENGTH,
};

/**
 * `description`: stripped, within the device's limits in characters and in bytes, no
 * control or bidirectional characters; "" clears.
 */
export function parseDescription(value: unknown, limits: TextLimits = DEFAULT_DESCRIPTION_LIMITS): Result<string> {
  const reason = msg.missingParameter("description");
  const raw = textOrNumber(value);
  if (raw === null) return failure(400, isAbsent(value) ? "missing_parameter" : "invalid_parameter", reason);
  const text = stripBlanks(raw);
  if (textLength(text) > limits.characters)
    return failure(400, "invalid_parameter", msg.descriptionTooLong(limits.characters));
  if (hasControlCharacter(text)) return failure(400, "invalid_parameter", msg.DESCRIPTION_CONTROL_CHARACTERS);
  if (byteLength(text) > limits.bytes)
    return failure(400, "invalid_parameter", msg.descriptionTooManyBytes(limits.bytes, byteLength(text)));
  return success(text);
}

export interface VlanDefinition {
  id: number;
  name: string;
}

/**
 * `vlan_id` + `vlan_name` of VLAN add ("add") and rename ("edit"): the two differ only in
 * the text for an empty name.
 */
export function parseVlanDefinition(
  body: { vlan_id?: unknown; vlan_name?: unknown },
  action: "add" | "edit",
  limits: TextLimits = DEFAULT_VLAN_NAME_LIMITS,
): Result<VlanDefinition> {
  const id = parseInteger(body.vlan_id);
  const rawName = textOrNumber(body.vlan_name);
  if (id === null) return missingOrInvalid(body.vlan_id, msg.VLAN_PARAMETERS_INVALID);
  if (rawName === null) return missingOrInvalid(body.vlan_name, msg.VLAN_PARAMETERS_INVALID);
  if (!isVlanId(id)) return failure(400, "invalid_parameter", msg.invalidNewVlanId(id));
  const name = stripBlanks(rawName);
  if (name === "") {
    return failure(400, "invalid_parameter", action === "add" ? msg.VLAN_NAME_MISSING : msg.VLAN_NAME_EMPTY);
  }
  if (textLength(name) > limits.characters)
    return failure(400, "invalid_parameter", msg.vlanNameTooLong(limits.characters));
  if (hasControlCharacter(name)) return failure(400, "invalid_parameter", msg.VLAN_NAME_CONTROL_CHARACTERS);
  if (byteLength(name) > limits.bytes)
    return failure(400, "invalid_parameter", msg.vlanNameTooManyBytes(limits.bytes, byteLength(name)));
  return success({ id, name });
}

/** `vlan_id` of VLAN delete. */
export function parseVlanIdToDelete(value: unknown): Result<number> {
  const id = parseInteger(value);
  if (id === null) return missingOrInvalid(value, msg.missingParameter("vlan_id"));
  if (!isVlanId(id)) return failure(400, "invalid_parameter", msg.invalidNewVlanId(id));
  return success(id);
}

/** What POST .../tags/ asks: the native VLAN, the tagged ones (ascending, native left out), and allow_all. */
export interface TagsRequest {
  untagged: number;
  tagged: number[];
  allowAll: boolean;
}

/** the parts of a tagged_vlans value (comma text, JSON array, one number), or null when it is malformed */
function taggedItems(value: unknown): unknown[] | null {
  if (typeof value === "number") return [value];
  if (Array.isArray(value)) return value as unknown[];
  if (typeof value !== "string") return null;
  if (value.trim() === "") return [];
  return value.split(",").map((item) => item.trim());
}

/**
 * The body of POST .../tags/ (CONTRACT section 10). All three parameters are required:
 * absent (or blank) is missing_parameter, present but unreadable invalid_parameter, both
 * with the contract's one text. `tagged_vlans` is a comma list, a JSON array of numbers
 * or numeric strings, one number, or empty; a VLAN id outside 1..4094 or listed twice is
 * 400 naming it; the native VLAN in the list is left out (it is the port's untagged VLAN,
 * not a tag). `allow_all` takes the on-values of `state`.
 */
export function parseTagsRequest(body: {
  untagged_vlan?: unknown;
  tagged_vlans?: unknown;
  allow_all?: unknown;
}): Result<TagsRequest> {
  const bad = (value: unknown) => missingOrInvalid(value, msg.TAGS_PARAMETERS_INVALID);
  const untagged = parseInteger(body.untagged_vlan);
  if (untagged === null) return bad(body.untagged_vlan);
  if (isAbsent(body.tagged_vlans)) return bad(body.tagged_vlans);
  const items = taggedItems(body.tagged_vlans);
  if (items === null) return failure(400, "invalid_parameter", msg.TAGS_PARAMETERS_INVALID);
  const allowText = scalarText(body.allow_all);
  if (allowText === null || allowText.trim() === "") return bad(body.allow_all);

  if (!isVlanId(untagged)) return failure(400, "invalid_parameter", msg.invalidVlanIdIn("untagged_vlan", untagged));
  const tagged = new Set<number>();
  for (const item of items) {
    const id = parseInteger(item);
    if (id === null) return failure(400, "invalid_parameter", msg.TAGS_PARAMETERS_INVALID);
    if (!isVlanId(id)) return failure(400, "invalid_parameter", msg.invalidVlanIdIn("tagged_vlans", id));
    if (tagged.has(id)) return failure(400, "invalid_parameter", msg.vlanListedTwice(id));
    tagged.add(id);
  }
  tagged.delete(untagged);
  return success({ untagged, tagged: [...tagged].sort((a, b) => a - b), allowAll: isOnValue(allowText) });
}
