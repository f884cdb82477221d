/**
 * Every human text of the API contract (docs/api-decisions.md section 2-6), word for word.
 * Scripts written against OpenL2M match on these strings, so they live in one place and
 * handlers only ever call these. Texts the contract leaves open (marked "ours") say
 * plainly what went wrong.
 */

type AdminWord = "Enabled" | "Disabled";

/** The word the contract uses for an on/off state. */
export function stateWord(on: boolean): AdminWord {
  return on ? "Enabled" : "Disabled";
}

// --- Section 2: authentication and tokens ---------------------------------------------

export const NOT_AUTHENTICATED = "Authentication credentials were not provided.";
export const INVALID_TOKEN = "Invalid token";
export const TOKEN_EXPIRED = "Token expired";
export const USER_INACTIVE = "User inactive";
export const LOGIN_FAILED = "Unable to log in with provided credentials.";
export const TOO_MANY_TOKENS = "Too many tokens exist!";
/** the directory did not answer (code directory_unavailable, 503; docs/api-decisions.md section 12) */
export const DIRECTORY_UNAVAILABLE = "The directory server could not be reached; local accounts can still log in";

export function missingParameter(name: string): string {
  return `Missing or invalid required parameter: '${name}'`;
}

// --- Section 3: who may do what -------------------------------------------------------

export const ACCESS_DENIED = "Access denied!";
export const TOKEN_CANNOT_WRITE = "This token cannot write!";
export const CANNOT_MANAGE_INTERFACE = "You can not manage this interface!";
export const CANNOT_EDIT_DESCRIPTION = "You are not allowed to change the interface description!";
export const SUPERUSER_TO_DELETE_VLAN = "Access Denied: you need to be SuperUser to delete a VLAN";
export const NO_ADMIN_PERMISSION = "You do not have permission to perform this action.";
export const LAST_SUPERUSER = "The last active superuser cannot lose superuser rights or be deactivated";

/** unmanage_reason texts, as OpenL2M shows them */
export const NOT_ETHERNET = "Access denied: not an Ethernet interface!";
export const ROUTED_MODE = "Access denied: interface in routed mode!";
export const VLAN_NOT_ACCESSIBLE = "Interface access denied: you do not have access to the interface vlan!";

// --- Section 4: device reads ----------------------------------------------------------

export function deviceNotFound(text: string): string {
  return `Device '${text}' not found!`;
}

/** ours: the contract asks for the device name and what failed */
export function deviceUnreachable(deviceName: string, detail: string): string {
  return `Device '${deviceName}' could not be reached: ${detail}`;
}

// --- Section 5: device writes ---------------------------------------------------------

export function stateChanged(interfaceName: string, up: boolean): string {
  return `Interface ${interfaceName} is now ${stateWord(up)}`;
}

export function poeChanged(interfaceName: string, on: boolean): string {
  return `Interface ${interfaceName} PoE is now ${stateWord(on)}`;
}

export function vlanChanged(interfaceName: string, vlan: number): string {
  return `Interface ${interfaceName} changed to vlan ${vlan}`;
}

export function descriptionChanged(interfaceName: string): string {
  return `Interface ${interfaceName} description was changed!`;
}

/** `word` is the requested state, which equals the current one. */
export function sameState(word: AdminWord): string {
  return `New interface status is the same (${word}), please change status!`;
}

export function samePoeState(word: AdminWord): string {
  return `New PoE status is the same (${word}), please change status!`;
}

export function sameVlan(vlan: number): string {
  return `New vlan ${vlan} is the same, please change the vlan first!`;
}

export const SAME_DESCRIPTION = "New description is the same, please change it first!";

export function missingNumericParameter(name: string): string {
  return `Missing or invalid required numeric parameter: '${name}'`;
}

export function vlanNotAllowed(vlan: number): string {
  return `New vlan ${vlan} is not valid or allowed on this device`;
}

export function noPoe(interfaceName: string): string {
  return `Interface ${interfaceName} does not support PoE`;
}

export function interfaceNotFound(interfaceId: string): string {
  return `Interface ${interfaceId} not found`;
}

export function descriptionTooLong(max: number): string {
  return `Description is too long (max ${max} characters)`;
}

/** ours */
export const DESCRIPTION_CONTROL_CHARACTERS = "Description may not contain control characters or line breaks";

/** ours: devices count bytes of UTF-8, so a short text of wide characters can be too long */
export function descriptionTooManyBytes(max: number, actual: number): string {
  return `Description is too long for the device (max ${max} bytes of UTF-8, this one has ${actual})`;
}

/** ours: the contract asks for what the device said */
export function deviceRefused(deviceName: string, detail: string): string {
  return `Device '${deviceName}' refused the change: ${detail}`;
}

/** a different SSH host key than the pinned one (docs/api-decisions.md section 9) */
export function hostKeyChanged(deviceName: string, fingerprint: string, acceptedOn: string): string {
  return `Device '${deviceName}' presented a different SSH host key (${fingerprint}) than the one accepted on ${acceptedOn}; an administrator must accept the new key`;
}

/** a different TLS certificate than the pinned one (docs/api-decisions.md section 17) */
export function certificateChanged(deviceName: string, fingerprint: string, acceptedOn: string): string {
  return `Device '${deviceName}' presented a different TLS certificate (${fingerprint}) than the one accepted on ${acceptedOn}; an administrator must accept the new certificate`;
}

/** ours: the audit row (and log line) of a host key or certificate pinned at a device's first contact */
export function pinnedOnFirstContact(deviceName: string, what: string, fingerprint: string): string {
  return `Device '${deviceName}' was reached for the first time: its ${what} ${fingerprint} is now pinned (trust on first use); a different one will be refused until an administrator accepts it`;
}

/** ours: the device took the change but reads back something else */
export function deviceMismatch(deviceName: string, detail: string): string {
  return `Device '${deviceName}' did not keep the change: ${detail}`;
}

/** A change was sent and the device stopped answering. `what` is e.g. "the change of untagged VLAN on Gi1/0/3". */
export function outcomeUnknown(deviceName: string, what: string): string {
  return `Device '${deviceName}' did not confirm ${what}: it may have been applied; read the interface before trying again`;
}

/** device_busy (503 with Retry-After): the device's wait queue is full, or no turn to write within the wait */
export function deviceBusy(deviceName: string, seconds: number): string {
  return `Device '${deviceName}' is busy; try again in ${seconds} s`;
}

/** the audit row of a write whose instance died while it held the device's write lease */
export function writeCutOff(deviceName: string, instance: string, since: string, expired: string): string {
  return `A write to device '${deviceName}' through instance ${instance} (started ${since}) was cut off: the instance stopped renewing its write lease, which expired at ${expired}; whether the change reached the device is not known; read the device before trying again`;
}

/** database_unavailable (503 with Retry-After): the database could not be used for the call */
export function databaseUnavailable(seconds: number): string {
  return `The database could not be reached; try again in ${seconds} s`;
}

/** the audit row of a write left pending (its outcome never recorded), settled by the device's next lease holder */
export function pendingWriteSettled(deviceName: string, since: string): string {
  return `The outcome of this write to device '${deviceName}' (started ${since}) was never recorded: the database could not be reached, or the instance stopped, while the device was being changed; whether the change reached the device is not known; read the device before trying again`;
}

/** ours: a driver that cannot do an action at all (`what` like "change the PoE state") */
export function deviceCannot(what: string): string {
  return `This switch model cannot ${what}`;
}

export const SAVE_MISSING = "Missing or invalid required parameter and value: 'save=yes'";
export const NO_SAVE_REQUESTED = "No save requested (why did you call us?).";
export const CANNOT_SAVE = "This switch model cannot save or does not need to save the config";
export const CONFIG_SAVED = "Configuration saved!";

export const VLAN_PARAMETERS_INVALID = "One or more missing or invalid required parameters: 'vlan_name', 'vlan_id'";

export function invalidNewVlanId(id: number | string): string {
  return `Invalid new vlan id: '${id}'`;
}

export const VLAN_NAME_MISSING = "Please provide a vlan name!";
export const VLAN_NAME_EMPTY = "Vlan name can not be empty!";

/** ours */
export function vlanNameTooLong(max: number): string {
  return `Vlan name is too long (max ${max} characters)`;
}

/** ours */
export const VLAN_NAME_CONTROL_CHARACTERS = "Vlan name may not contain control characters or line breaks";

export function vlanNameTooManyBytes(max: number, actual: number): string {
  return `Vlan name is too long for the device (max ${max} bytes of UTF-8, this one has ${actual})`;
}

export function vlanExists(id: number): string {
  return `Vlan ${id} already exists!`;
}

export function vlanMissing(id: number): string {
  return `Vlan ${id} does not exist!`;
}

export function vlanCreated(id: number, name: string): string {
  return `Vlan ${id} (${name}) created.`;
}

export function vlanRenamed(id: number, name: string): string {
  return `Updated name for vlan ${id} to '${name}'`;
}

export function vlanDeleted(id: number): string {
  return `Vlan ${id} was deleted!`;
}

// --- Section 10: trunk ports (POST .../interface/<if>/tags/) ------------------------------

/** CONTRACT section 10: any of the three parameters missing or malformed */
export const TAGS_PARAMETERS_INVALID =
  "Missing or invalid parameter: 'untagged_vlan', 'tagged_vlans' and 'allow_all' are required!";

export function tagsChanged(interfaceName: string): string {
  return `Interface ${interfaceName} vlans have been set!`;
}

/** ours, in the words of the other writes' same-value texts */
export const SAME_TAGS = "New vlans are the same, please change the vlans first!";

/** ours: a VLAN id outside 1..4094 in `parameter` */
export function invalidVlanIdIn(parameter: string, id: number): string {
  return `Invalid vlan id in '${parameter}': '${id}'`;
}

/** ours */
export function vlanListedTwice(id: number): string {
  return `Vlan ${id} is listed more than once in 'tagged_vlans'`;
}

/** VLAN add, rename or delete of a VLAN the group of the URL does not allow (code vlan_not_allowed, 403) */
export function vlanChangeNotAllowed(id: number): string {
  return `You are not allowed to change vlan ${id}`;
}

// --- Section 6: user administration ---------------------------------------------------

export const USERNAME_TAKEN = "A user with that username already exists.";
export const INVALID_PROFILE = "Invalid profile: must be a JSON dictionary";
export const INVALID_USER_ID = "Invalid user id!";

// --- Free text in admin fields (ours) -------------------------------------------------

/** why a text field was refused (domain/request-values.ts textFault) */
export const TEXT_FAULT_WORDS = {
  control: "control characters are not allowed",
  bidi: "bidirectional control characters are not allowed",
  surrogate: "lone surrogates (half of a UTF-16 character pair) are not allowed",
} as const;

/** an admin field's value refused, and why */
export function invalidParameterValue(field: string, words: string): string {
  return `Invalid value for parameter '${field}': ${words}`;
}

/** A local account's password shorter than PASSWORD_MIN_LENGTH (code invalid_password). */
export function passwordTooShort(minLength: number): string {
  return `This password is too short. It must contain at least ${minLength} characters.`;
}

// --- Helpdesk writes: batches, bounces, PoE power cycles (ours, docs/api-decisions.md) --

export const BATCH_ITEMS_INVALID =
  "Missing or invalid required parameter: 'items' (a list of changes, each with 'interface')";
export const BATCH_ON_FAILURE_INVALID = "Invalid parameter 'on_failure': 'stop' or 'continue'";

export function batchTooLarge(n: number, max: number): string {
  return `Too many items in one batch: ${n} (at most ${max})`;
}

export function batchWaitTooLong(seconds: number, max: number): string {
  return `The waits of one batch add up to ${seconds} s (at most ${max} s)`;
}

export function invalidWait(value: string): string {
  return `Invalid parameter 'wait': '${value}' (seconds, 0 to 60)`;
}

export function bounceNeedsEnabled(interfaceName: string): string {
  return `Interface ${interfaceName} is Disabled: only an enabled interface can be bounced`;
}

export function poeCycleNeedsEnabled(interfaceName: string): string {
  return `Interface ${interfaceName} PoE is Disabled: only enabled PoE can be power cycled`;
}

export function bounced(interfaceName: string, seconds: number): string {
  return `Interface ${interfaceName} was bounced (down ${seconds} s, now Enabled)`;
}

export function poeCycled(interfaceName: string, seconds: number): string {
  return `Interface ${interfaceName} PoE was power cycled (off ${seconds} s, now Enabled)`;
}

/** a batch item not sent because an earlier item failed on the device (on_failure=stop) */
export function batchStopped(failedItem: number): string {
  return `Not sent: item ${failedItem} failed on the device and the batch stops at a device failure`;
}

/** the row of a port switched on again after its bounce or power cycle was cut off */
export function switchedBackOn(interfaceName: string, what: "bounce" | "poe_cycle", by: string, since: string): string {
  const which = what === "bounce" ? "bounce" : "PoE power cycle";
  const thing = what === "bounce" ? "" : " PoE";
  return `Interface ${interfaceName}${thing} switched back on: the ${which} by ${by || "a user"} at ${since} was cut off before it switched it on`;
}

export const BATCH_NOTHING_TO_SAVE = "Nothing was changed: no save needed";
