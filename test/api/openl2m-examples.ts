/**
 * Every example call of OpenL2M 4.2.6's API documents (docs/api/*.rst and
 * docs/api/admin/*.rst of its repository at tag v4.2.6), written down as data for
 * test/api/openl2m-compat.test.ts: the call as the document makes it, and the answer the
 * document shows (status, keys and their types, and a value where the document's value
 * follows from the call). The calls of OpenL2M's example client (github.com/openl2m/api_client,
 * client-example.py) follow in API_CLIENT_CALLS.
 *
 * The documents' ids are kept where the test can give its objects those ids (group 35,
 * switch 272, interfaces 3, 10 and 15 of a Comware lab switch, whose ifIndex is the port
 * number); objects the documents create get their ids from the create call ({snmpprofile},
 * {user}, ...). Where switchdesk answers differently on purpose, `note` says why and which
 * decision (CONTRACT = the contract the project builds, docs/api-decisions.md).
 */

/** What an answer's value must be: a JSON type, one of several, or a described object or list. */
export type Shape =
  | "string"
  | "integer"
  | "boolean"
  | "null"
  | "any"
  /** a secret OpenL2M echoes: switchdesk answers null and adds <key>_set (boolean) */
  | "secret"
  | Shape[]
  | { keys: Record<string, Shape>; optional?: string[]; notHere?: Record<string, string> }
  /** a list; `some`: the document's list is not empty, and the answer's must not be either */
  | { items: Shape; some?: boolean }
  /** an object keyed by ids (OpenL2M's "dictionary of items") */
  | { entries: Shape };

export interface Example {
  /** short unique name, for the test's title */
  id: string;
  /** the document (path in openl2m/openl2m) and what its example shows */
  doc: string;
  method: "GET" | "POST" | "PATCH";
  /** the path as the document writes it; {name} is filled in by the test */
  path: string;
  /** how the document sends its parameters (httpie --form, curl -d JSON, requests json=) */
  body?: { form: Record<string, string> } | { json: Record<string, unknown> };
  /** who calls: the superuser's token (default), a helpdesk user's token, or nobody */
  caller?: "root" | "helpdesk" | "none";
  /** extra request headers the document sends */
  headers?: Record<string, string>;
  status: number;
  shape: Shape;
  /** values the answer must have (top level), where the document's follow from the call */
  values?: Record<string, unknown>;
  /** the text of `result` or `reason`: exact, or a pattern */
  text?: string | RegExp;
  /** keep the answer's `id` as {name} for later calls */
  capture?: string;
  note?: string;
}

const str = "string";
const int = "integer";
const bool = "boolean";
const labelled = (value: Shape): Shape => ({ keys: { label: str, value } });
const result: Shape = { keys: { result: str } };
const reason: Shape = { keys: { reason: str } };

// ---- device API shapes (docs/api/api_menu.rst, api_search.rst, api_basic_details.rst) ----

const menuMember: Shape = {
  keys: {
    comments: str,
    connector_type: int,
    connector_type_name: str,
    default_view: int,
    default_view_name: str,
    description: str,
    driver_info: str,
    hostname: str,
    name: str,
    nms_id: str,
    primary_ipv4: [str, "null"],
    read_only: bool,
    url: str,
  },
};
const menu: Shape = {
  keys: {
    groups: {
      entries: {
        keys: {
          comments: str,
          description: str,
          display_name: str,
          members: { entries: menuMember },
          name: str,
          read_only: bool,
        },
      },
    },
    user: { keys: { allow_poe_toggle: bool, edit_if_descr: bool, name: str, read_only: bool, vlan_edit: bool } },
  },
};

const searchResult: Shape = {
  keys: {
    groups: { entries: { keys: { description: str, id: str, name: str, read_only: bool, switch_url: str } } },
    switch: {
      keys: {
        comments: str,
        connector_type: int,
        connector_type_name: str,
        default_view: int,
        default_view_name: str,
        description: str,
        hostname: str,
        id: str,
        name: str,
        nms_id: str,
        primary_ipv4: [str, "null"],
        read_only: bool,
      },
    },
  },
};

const portPoe: Shape = {
  keys: {
    admin_status: str,
    detect_status: str,
    max_power_consumed: int,
    power_available: int,
    power_consumed: int,
    power_consumption_supported: bool,
  },
};
const iface: Shape = {
  keys: {
    description: str,
    duplex: str,
    ethernet_addresses: {
      items: {
        keys: { address: str, hostname: str, ipv4: "any", ipv6: "any", vlan: int },
      },
    },
    id: str,
    manageable: bool,
    mode: str,
    name: str,
    neighbors: {
      items: {
        keys: {
          capabilities: "any",
          hostname: str,
          port_description: str,
          port_name: str,
          system_description: str,
          system_name: str,
        },
      },
    },
    online: bool,
    poe: portPoe,
    speed: int,
    state: str,
    tagged_vlans: str,
    unmanage_reason: str,
    vlan: int,
  },
  // the document's own example leaves these out where they do not apply (CONTRACT section 4)
  optional: ["poe", "speed", "tagged_vlans", "unmanage_reason", "vlan"],
};
const switchInfo: Shape = {
  keys: {
    change_admin_status: bool,
    change_description: bool,
    change_poe: bool,
    change_vlan: bool,
    driver: str,
    edit_vlans: bool,
    group: str,
    group_id: int,
    hostname: str,
    id: int,
    name: str,
    poe: [
      bool,
      {
        keys: {
          enabled: "any",
          max_power: int,
          "power-supplies": {
            items: { keys: { id: int, max_power: int, power_consumed: int, status: str, threshold: int } },
          },
          power_consumed: int,
        },
      },
    ],
    primary_ipv4: [str, "null"],
    read_only: bool,
    save_config: bool,
    vendor: str,
  },
};
const deviceView: Shape = {
  keys: {
    interfaces: { items: iface, some: true },
    switch: switchInfo,
    vlans: { entries: { keys: { id: int, igmp_snooping: bool, name: str, state: str, status: str } } },
  },
};
const VLANS_NOTE =
  "the document's example shows vlans as a list with 'access'; its text says a dictionary keyed by VLAN id, " +
  "which OpenL2M 4.2.6's code answers, with 'allowed' (CONTRACT section 4)";

// ---- docs/api/api_stats.rst, api_environment.rst ----

const statsShape: Shape = {
  keys: {
    database: {
      keys: {
        api_tokens: labelled(int),
        credentials_profiles: labelled(int),
        log_entries: labelled(int),
        snmp_profiles: labelled(int),
        switches: labelled(int),
        switchgroups: labelled(int),
        vlans: labelled(int),
      },
      notHere: {
        command_lists: "switchdesk has no command lists",
        commands: "switchdesk has no commands",
        vlan_groups: "switchdesk has no VLAN groups",
      },
    },
    usage: {
      keys: Object.fromEntries(
        ["api_calls", "changes", "devices", "users"]
          .flatMap((what) =>
            ["last_31_days", "last_7_days", "today"]
              .map((when) => `${what}_${when}`)
              .concat(what === "api_calls" ? [] : [`${what}_last_hour`]),
          )
          .concat(["changes_total"])
          .map((k) => [k, labelled(int)]),
      ),
      notHere: Object.fromEntries(
        ["commands_last_31_days", "commands_last_7_days", "commands_today", "commands_total"].map((k) => [
          k,
          "switchdesk has no commands",
        ]),
      ),
    },
  },
};
const environmentShape: Shape = {
  keys: { database: labelled(str), hostname: labelled(str), os: labelled(str) },
  notHere: Object.fromEntries(
    [
      "database_name",
      "database_size",
      "debug",
      "distro",
      "django",
      "ezsnmp",
      "git_commit",
      "git_version",
      "openl2m",
      "python",
    ].map((k) => [
      k,
      "OpenL2M's own runtime (Python, Django, PostgreSQL); switchdesk lists its own (node, switchdesk, ...)",
    ]),
  ),
};

// ---- admin shapes (docs/api/admin/*.rst) ----

const user: Shape = {
  keys: {
    date_joined: str,
    email: str,
    first_name: str,
    groups: { items: int },
    id: int,
    is_active: bool,
    is_staff: bool,
    is_superuser: bool,
    last_login: [str, "null"],
    last_name: str,
    password: str,
    profile: int,
    user_permissions: { items: int },
    username: str,
  },
};
const profile: Shape = {
  keys: {
    allow_poe_toggle: bool,
    are_you_sure: bool,
    bulk_edit: bool,
    edit_if_descr: bool,
    id: int,
    last_ldap_dn: str,
    last_ldap_login: [str, "null"],
    read_only: bool,
    theme: str,
    user: int,
    vlan_edit: bool,
  },
};
const userWithProfile: Shape = { keys: { ...(user as { keys: Record<string, Shape> }).keys, profile } };

const adminSwitch: Shape = {
  keys: {
    allow_poe_toggle: bool,
    bulk_edit: bool,
    command_list: [int, "null"],
    command_templates: { items: int },
    comments: str,
    connector_type: int,
    default_view: int,
    description: str,
    edit_if_descr: bool,
    hostname: [str, "null"],
    id: int,
    name: str,
    napalm_device_type: [str, "null"],
    netmiko_profile: [int, "null"],
    nms_id: [str, "null"],
    primary_ip4: [str, "null"],
    read_only: bool,
    snmp_profile: [int, "null"],
    status: int,
    switchgroups: { items: int },
  },
};
const switchGroup: Shape = {
  keys: {
    allow_all_vlans: bool,
    allow_poe_toggle: bool,
    bulk_edit: bool,
    comments: str,
    description: str,
    display_name: str,
    edit_if_descr: bool,
    id: int,
    name: str,
    read_only: bool,
    switches: { items: int },
    users: { items: int },
    vlan_groups: { items: int },
    vlans: { items: int },
  },
};
const snmpProfileKeys: Record<string, Shape> = {
  auth_protocol: int,
  community: "secret",
  context_engine_id: [str, "null"],
  context_name: [str, "null"],
  description: str,
  id: int,
  name: str,
  priv_protocol: int,
  sec_level: int,
  udp_port: int,
  username: [str, "null"],
  version: int,
};
/** the list and the update answer show the passphrases too; the create answer does not */
const snmpProfileFull: Shape = { keys: { ...snmpProfileKeys, passphrase: "secret", priv_passphrase: "secret" } };
const snmpProfileCreated: Shape = { keys: snmpProfileKeys };
const netmikoProfile: Shape = {
  keys: {
    description: str,
    device_type: str,
    enable_password: "secret",
    id: int,
    name: str,
    password: "secret",
    tcp_port: int,
    username: str,
    verify_hostkey: bool,
  },
};

const NOT_MANAGEABLE = "You can not manage this interface!";
const HELPDESK_NOTE =
  "the document's failure example: a caller who may not manage the port (here a helpdesk user whose group allows " +
  "VLAN 61 only, on a port in VLAN 1)";

export const EXAMPLES: Example[] = [
  // ---- docs/api/api_user_token.rst ----
  {
    id: "token",
    doc: "docs/api/api_user_token.rst: a token for a user name and password (httpie --form)",
    method: "POST",
    path: "api/users/token/",
    body: { form: { username: "{helpdeskName}", password: "{helpdeskPassword}" } },
    caller: "none",
    status: 200,
    shape: { keys: { email: str, token: str, user_id: int } },
  },
  // ---- docs/api/setup.rst, api_menu.rst, api_making_calls.rst ----
  {
    id: "menu",
    doc: "docs/api/setup.rst (curl and httpie) and docs/api/api_menu.rst: the devices this token may use",
    method: "GET",
    path: "api/switches/",
    status: 200,
    shape: menu,
  },
  {
    id: "menu-json-headers",
    doc: "docs/api/api_making_calls.rst: the same GET from Python requests with a JSON Content-Type header",
    method: "GET",
    path: "api/switches/",
    headers: { "content-type": "application/json" },
    status: 200,
    shape: menu,
  },
  // ---- docs/api/api_search.rst ----
  {
    id: "search",
    doc: "docs/api/api_search.rst: a device by its name, with the groups it is in",
    method: "GET",
    path: "api/switches/search/{switchName}/",
    status: 200,
    shape: searchResult,
  },
  // ---- docs/api/api_basic_details.rst ----
  {
    id: "basic",
    doc: "docs/api/api_basic_details.rst: the basic view of switch 272 in group 35",
    method: "GET",
    path: "api/switches/35/272/",
    status: 200,
    shape: deviceView,
    note: VLANS_NOTE,
  },
  {
    id: "details",
    doc: "docs/api/api_basic_details.rst: the details view (ethernet addresses and LLDP neighbours filled in)",
    method: "GET",
    path: "api/switches/35/272/details/",
    status: 200,
    shape: deviceView,
    note: VLANS_NOTE,
  },
  // ---- docs/api/api_interface_state.rst ----
  {
    id: "state",
    doc: "docs/api/api_interface_state.rst: interface 3 disabled (state:=0)",
    method: "POST",
    path: "api/switches/35/272/interface/3/state/",
    body: { json: { state: 0 } },
    status: 200,
    shape: result,
    text: /^Interface .+ is now Disabled$/,
    note: "httpie's `state:=0` is a raw JSON item: sent as JSON",
  },
  {
    id: "state-refused",
    doc: "docs/api/api_interface_state.rst: the failure example",
    method: "POST",
    path: "api/switches/{helpdeskGroup}/272/interface/5/state/",
    body: { json: { state: 0 } },
    caller: "helpdesk",
    status: 403,
    shape: reason,
    text: NOT_MANAGEABLE,
    note: HELPDESK_NOTE,
  },
  // ---- docs/api/api_interface_vlan.rst ----
  {
    id: "vlan",
    doc: "docs/api/api_interface_vlan.rst: interface 3 moved to VLAN 500 (vlan:=500)",
    method: "POST",
    path: "api/switches/35/272/interface/3/vlan/",
    body: { json: { vlan: 500 } },
    status: 200,
    shape: result,
    text: /^Interface .+ changed to vlan 500$/,
  },
  {
    id: "vlan-refused",
    doc: "docs/api/api_interface_vlan.rst: the failure example",
    method: "POST",
    path: "api/switches/{helpdeskGroup}/272/interface/5/vlan/",
    body: { json: { vlan: 61 } },
    caller: "helpdesk",
    status: 403,
    shape: reason,
    text: NOT_MANAGEABLE,
    note: HELPDESK_NOTE,
  },
  // ---- docs/api/api_interface_tags.rst ----
  {
    id: "tags",
    doc: "docs/api/api_interface_tags.rst: interface 3 untagged in 500, tagged in 1-5 (untagged_vlan:=500 tagged_vlans=1,2,3,4,5 allow_all=no)",
    method: "POST",
    path: "api/switches/35/272/interface/3/tags/",
    body: { json: { untagged_vlan: 500, tagged_vlans: "1,2,3,4,5", allow_all: "no" } },
    status: 200,
    shape: result,
    note: "the document's result text is older than OpenL2M 4.2.6's code; the contract's is 'Interface <name> vlans have been set!'",
  },
  {
    id: "tags-refused",
    doc: "docs/api/api_interface_tags.rst: the failure example",
    method: "POST",
    path: "api/switches/{helpdeskGroup}/272/interface/5/tags/",
    body: { json: { untagged_vlan: 61, tagged_vlans: "", allow_all: "no" } },
    caller: "helpdesk",
    status: 403,
    shape: reason,
    text: NOT_MANAGEABLE,
    note: HELPDESK_NOTE,
  },
  // ---- docs/api/api_interface_poe.rst ----
  {
    id: "poe",
    doc: "docs/api/api_interface_poe.rst: PoE on for interface 3 (poe_state=On)",
    method: "POST",
    path: "api/switches/35/272/interface/3/poe_state/",
    body: { form: { poe_state: "On" } },
    status: 200,
    shape: result,
    text: /^Interface .+ PoE is now Enabled$/,
  },
  {
    id: "poe-refused",
    doc: "docs/api/api_interface_poe.rst: the failure example",
    method: "POST",
    path: "api/switches/{helpdeskGroup}/272/interface/5/poe_state/",
    body: { form: { poe_state: "On" } },
    caller: "helpdesk",
    status: 403,
    shape: reason,
    text: NOT_MANAGEABLE,
    note: HELPDESK_NOTE,
  },
  // ---- docs/api/api_interface_description.rst ----
  {
    id: "description",
    doc: "docs/api/api_interface_description.rst: a new description for interface 3",
    method: "POST",
    path: "api/switches/35/272/interface/3/description/",
    body: { form: { description: "new API description" } },
    status: 200,
    shape: result,
    text: /^Interface .+ description was changed!$/,
  },
  {
    id: "description-refused",
    doc: "docs/api/api_interface_description.rst: the failure example",
    method: "POST",
    path: "api/switches/{helpdeskGroup}/272/interface/5/description/",
    body: { form: { description: "new API description" } },
    caller: "helpdesk",
    status: 403,
    shape: reason,
    text: NOT_MANAGEABLE,
    note: HELPDESK_NOTE,
  },
  // ---- docs/api/api_making_calls.rst (and the request headers of docs/api/setup.rst) ----
  {
    id: "description-json",
    doc: "docs/api/api_making_calls.rst: a description set from Python requests with json=",
    method: "POST",
    path: "api/switches/35/272/interface/3/description/",
    body: { json: { description: "your new description here" } },
    headers: { "content-type": "application/json" },
    status: 200,
    shape: result,
    note: "the document's path leaves out 'switches/' (api/<group>/<switch>/...), which no server answers; the path of the endpoint list is used",
  },
  {
    id: "description-form",
    doc: "docs/api/api_making_calls.rst: the same with data= (a form)",
    method: "POST",
    path: "api/switches/35/272/interface/3/description/",
    body: { form: { description: "<your description>" } },
    status: 200,
    shape: result,
  },
  {
    id: "description-json-same",
    doc: "docs/api/api_making_calls.rst: the same value again with json= (docs/api/endpoints.rst: the same value is 404)",
    method: "POST",
    path: "api/switches/35/272/interface/3/description/",
    body: { json: { description: "<your description>" } },
    status: 404,
    shape: reason,
    text: "New description is the same, please change it first!",
  },
  // ---- docs/api/endpoints.rst and docs/api/api_save_config.rst ----
  {
    id: "save-missing",
    doc: "docs/api/endpoints.rst: save called without its parameter (httpie --form, no items)",
    method: "POST",
    path: "api/switches/35/272/save/",
    body: { form: {} },
    status: 400,
    shape: reason,
    text: "Missing or invalid required parameter and value: 'save=yes'",
    note: "the document's text is older; this is OpenL2M 4.2.6's code's text (CONTRACT section 5)",
  },
  {
    id: "save",
    doc: "docs/api/api_save_config.rst: save=1 (httpie --form)",
    method: "POST",
    path: "api/switches/35/272/save/",
    body: { form: { save: "1" } },
    status: 200,
    shape: result,
    text: "Configuration saved!",
  },
  {
    id: "save-json",
    doc: 'docs/api/api_save_config.rst: the curl equivalent, JSON {"save":"1"}',
    method: "POST",
    path: "api/switches/35/272/save/",
    body: { json: { save: "1" } },
    headers: { "content-type": "application/json" },
    status: 200,
    shape: result,
    text: "Configuration saved!",
  },
  {
    id: "save-zero",
    doc: "docs/api/api_save_config.rst: save=0",
    method: "POST",
    path: "api/switches/35/272/save/",
    body: { form: { save: "0" } },
    status: 400,
    shape: reason,
    text: "No save requested (why did you call us?).",
  },
  // ---- docs/api/api_vlan_manage.rst ----
  {
    id: "vlan-add",
    doc: "docs/api/api_vlan_manage.rst: VLAN 777 'seven-times-3' created",
    method: "POST",
    path: "api/switches/35/272/vlan/add/",
    body: { form: { vlan_id: "777", vlan_name: "seven-times-3" } },
    status: 200,
    shape: result,
  },
  {
    id: "vlan-edit",
    doc: "docs/api/api_vlan_manage.rst: VLAN 777 renamed 'seven-seven-seven'",
    method: "POST",
    path: "api/switches/35/272/vlan/edit/",
    body: { form: { vlan_id: "777", vlan_name: "seven-seven-seven" } },
    status: 200,
    shape: result,
    note: "the document's header says 'Toke <token>', a typing error that no server accepts; sent with 'Token'",
  },
  {
    id: "vlan-delete",
    doc: "docs/api/api_vlan_manage.rst: VLAN 777 deleted",
    method: "POST",
    path: "api/switches/35/272/vlan/delete/",
    body: { form: { vlan_id: "777" } },
    status: 200,
    shape: result,
  },
  // ---- docs/api/api_stats.rst ----
  {
    id: "stats-post",
    doc: "docs/api/api_stats.rst: the httpie example (http --form POST .../api/stats/)",
    method: "POST",
    path: "api/stats/",
    body: { form: {} },
    status: 405,
    shape: reason,
    note: "the endpoint is GET only (the document's answer shows 'Allow: GET, HEAD, OPTIONS'); a POST is 405 in OpenL2M too",
  },
  {
    id: "stats",
    doc: "docs/api/api_stats.rst: the curl example (GET)",
    method: "GET",
    path: "api/stats/",
    status: 200,
    shape: statsShape,
  },
  // ---- docs/api/api_environment.rst ----
  {
    id: "environment-post",
    doc: "docs/api/api_environment.rst: the httpie example (http --form POST .../api/environment/)",
    method: "POST",
    path: "api/environment/",
    body: { form: {} },
    status: 405,
    shape: reason,
    note: "the endpoint is GET only (the document's answer shows 'Allow: GET, HEAD, OPTIONS'); a POST is 405 in OpenL2M too",
  },
  {
    id: "environment",
    doc: "docs/api/api_environment.rst: the curl example (GET)",
    method: "GET",
    path: "api/environment/",
    status: 200,
    shape: environmentShape,
  },

  // ---- docs/api/admin/api_users.rst ----
  {
    id: "admin-users",
    doc: "docs/api/admin/api_users.rst: every user (the profile as its id)",
    method: "GET",
    path: "api/admin/users/",
    status: 200,
    shape: { items: user, some: true },
  },
  {
    id: "admin-user-create",
    doc: "docs/api/admin/api_users.rst: a new user with three profile fields as a JSON dictionary",
    method: "POST",
    path: "api/admin/users/",
    body: {
      form: {
        first_name: "Jane",
        last_name: "Doe",
        email: "jane.doe@test.com",
        username: "jane123",
        password: "my_new_password",
        profile: '{"allow_poe_toggle": false, "are_you_sure": false, "theme": "dark"}',
      },
    },
    status: 201,
    shape: userWithProfile,
    values: { username: "jane123", first_name: "Jane", last_name: "Doe", is_superuser: false, last_login: null },
    capture: "user",
  },
  {
    id: "admin-user",
    doc: "docs/api/admin/api_users.rst: one user, with its profile",
    method: "GET",
    path: "api/admin/users/{user}/",
    status: 200,
    shape: userWithProfile,
  },
  {
    id: "admin-user-password",
    doc: "docs/api/admin/api_users.rst: a new password",
    method: "POST",
    path: "api/admin/users/{user}/",
    body: { form: { password: "new_password" } },
    status: 200,
    shape: userWithProfile,
  },
  {
    id: "admin-user-profile",
    doc: "docs/api/admin/api_users.rst: one profile field",
    method: "POST",
    path: "api/admin/users/{user}/",
    body: { form: { profile: '{"theme": "light"}' } },
    status: 200,
    shape: userWithProfile,
  },
  // ---- docs/api/admin/api_switches.rst ----
  {
    id: "admin-switches",
    doc: "docs/api/admin/api_switches.rst: every device",
    method: "GET",
    path: "api/admin/switches/",
    status: 200,
    shape: { items: adminSwitch, some: true },
  },
  {
    id: "admin-switch-create",
    doc: "docs/api/admin/api_switches.rst: a new SNMP device in switchgroups 1, 2 and 3",
    method: "POST",
    path: "api/admin/switches/",
    body: {
      form: {
        name: "New Device Name",
        primary_ip4: "10.2.3.4",
        snmp_profile: "{labProfile}",
        switchgroups: "{threeGroups}",
      },
    },
    status: 201,
    shape: adminSwitch,
    values: { name: "New Device Name", primary_ip4: "10.2.3.4", connector_type: 0, status: 1, command_list: null },
    capture: "adminSwitch",
    note: "the document's profile 3 and groups 1, 2 and 3 are objects of its database; the test's own stand in",
  },
  {
    id: "admin-switch",
    doc: "docs/api/admin/api_switches.rst: one device",
    method: "GET",
    path: "api/admin/switches/{adminSwitch}/",
    status: 200,
    shape: adminSwitch,
  },
  {
    id: "admin-switch-update",
    doc: "docs/api/admin/api_switches.rst: changed attributes (the document leaves them to the reader)",
    method: "POST",
    path: "api/admin/switches/{adminSwitch}/",
    body: { form: { description: "Some Interesting Switch", bulk_edit: "false" } },
    status: 200,
    shape: adminSwitch,
    values: { description: "Some Interesting Switch", bulk_edit: false },
  },
  // ---- docs/api/admin/api_switchgroups.rst ----
  {
    id: "admin-switchgroups",
    doc: "docs/api/admin/api_switchgroups.rst: every switch group",
    method: "GET",
    path: "api/admin/switches/switchgroups/",
    status: 200,
    shape: { items: switchGroup, some: true },
  },
  {
    id: "admin-switchgroup-create",
    doc: "docs/api/admin/api_switchgroups.rst: a new group with a name only",
    method: "POST",
    path: "api/admin/switches/switchgroups/",
    body: { form: { name: "New Group" } },
    status: 201,
    shape: switchGroup,
    values: { name: "New Group", switches: [], users: [], vlan_groups: [], vlans: [] },
    capture: "switchGroup",
  },
  {
    id: "admin-switchgroup",
    doc: "docs/api/admin/api_switchgroups.rst: one group",
    method: "GET",
    path: "api/admin/switches/switchgroups/{switchGroup}/",
    status: 200,
    shape: switchGroup,
  },
  {
    id: "admin-switchgroup-update",
    doc: "docs/api/admin/api_switchgroups.rst: changed attributes (the document leaves them to the reader)",
    method: "POST",
    path: "api/admin/switches/switchgroups/{switchGroup}/",
    body: { form: { description: "Device for Department X", allow_all_vlans: "true" } },
    status: 200,
    shape: switchGroup,
    values: { description: "Device for Department X", allow_all_vlans: true },
  },
  // ---- docs/api/admin/api_snmp.rst ----
  {
    id: "admin-snmpprofiles",
    doc: "docs/api/admin/api_snmp.rst: every SNMP profile",
    method: "GET",
    path: "api/admin/switches/snmpprofiles/",
    status: 200,
    shape: { items: snmpProfileFull, some: true },
  },
  {
    id: "admin-snmpprofile-create",
    doc: "docs/api/admin/api_snmp.rst: a new v2 profile",
    method: "POST",
    path: "api/admin/switches/snmpprofiles/",
    body: { form: { name: "Departmental SNMP", community: "private", version: "2" } },
    status: 201,
    shape: snmpProfileCreated,
    values: { name: "Departmental SNMP", version: 2, udp_port: 161, community_set: true },
    capture: "snmpProfile",
  },
  {
    id: "admin-snmpprofile",
    doc: "docs/api/admin/api_snmp.rst: one profile",
    method: "GET",
    path: "api/admin/switches/snmpprofiles/{snmpProfile}/",
    status: 200,
    shape: snmpProfileFull,
  },
  {
    id: "admin-snmpprofile-v3",
    doc: "docs/api/admin/api_snmp.rst: the v2 profile made a v3 authNoPriv one",
    method: "POST",
    path: "api/admin/switches/snmpprofiles/{snmpProfile}/",
    body: {
      form: { version: "3", sec_level: "1", auth_protocol: "2", username: "snmp_user", passphrase: "auth_secret" },
    },
    status: 200,
    shape: snmpProfileFull,
    values: {
      version: 3,
      sec_level: 1,
      auth_protocol: 2,
      username: "snmp_user",
      passphrase_set: true,
      priv_passphrase_set: false,
      community_set: true,
    },
  },
  // ---- docs/api/admin/api_credentials.rst ----
  {
    id: "admin-netmikoprofiles",
    doc: "docs/api/admin/api_credentials.rst: every credentials (Netmiko) profile",
    method: "GET",
    path: "api/admin/switches/netmikoprofiles/",
    status: 200,
    shape: { items: netmikoProfile, some: true },
  },
  {
    id: "admin-netmikoprofile-create",
    doc: "docs/api/admin/api_credentials.rst: a new profile on TCP port 2022",
    method: "POST",
    path: "api/admin/switches/netmikoprofiles/",
    body: {
      form: {
        name: "Dept. Y SSH",
        description: "Test SSH access",
        username: "user",
        password: "secret",
        tcp_port: "2022",
      },
    },
    status: 201,
    shape: netmikoProfile,
    values: {
      name: "Dept. Y SSH",
      description: "Test SSH access",
      username: "user",
      tcp_port: 2022,
      password_set: true,
    },
    capture: "netmikoProfile",
  },
  {
    id: "admin-netmikoprofile",
    doc: "docs/api/admin/api_credentials.rst: one profile",
    method: "GET",
    path: "api/admin/switches/netmikoprofiles/{netmikoProfile}/",
    status: 200,
    shape: netmikoProfile,
  },
  {
    id: "admin-netmikoprofile-password",
    doc: "docs/api/admin/api_credentials.rst: a new password",
    method: "POST",
    path: "api/admin/switches/netmikoprofiles/{netmikoProfile}/",
    body: { form: { password: "new_password" } },
    status: 200,
    shape: netmikoProfile,
    values: { password_set: true, tcp_port: 2022 },
  },
];

/**
 * The calls of OpenL2M's example client (openl2m/api_client: openl2m.py's Server and Device
 * classes as client-example.py uses them), in its order: JSON bodies, and a JSON
 * Content-Type header on every request, GETs included. Its groups 9 and 4 and devices 272
 * and 839 are given those ids by the test; device URLs come from the menu.
 */
export const API_CLIENT_CALLS: Example[] = (
  [
    ["client-stats", "Server.stats()", "GET", "api/stats/", undefined, statsShape],
    ["client-environment", "Server.environment()", "GET", "api/environment/", undefined, environmentShape],
    ["client-devices", "Server.devices()", "GET", "api/switches/", undefined, menu],
    ["client-device1", "Device.get() of device 272 in group 9", "GET", "api/switches/9/272/", undefined, deviceView],
    [
      "client-device2",
      "Device.get(view='details') of device 839 in group 4",
      "GET",
      "api/switches/4/839/details/",
      undefined,
      deviceView,
    ],
    [
      "client-description",
      "set_interface_description('15', 'New description') on device 1",
      "POST",
      "api/switches/9/272/interface/15/description/",
      { description: "New description" },
      result,
    ],
    [
      "client-vlan",
      "set_interface_vlan('15', 888) on device 1",
      "POST",
      "api/switches/9/272/interface/15/vlan/",
      { vlan: 888 },
      result,
    ],
    [
      "client-poe",
      "set_interface_poe_state('10', False) on device 2",
      "POST",
      "api/switches/4/839/interface/10/poe_state/",
      { poe_state: false },
      result,
    ],
    [
      "client-state",
      "set_interface_state('10', False) on device 2",
      "POST",
      "api/switches/4/839/interface/10/state/",
      { state: "off" },
      result,
    ],
  ] as const
).map(([id, what, method, path, json, shape]) => ({
  id,
  doc: `openl2m/api_client client-example.py: ${what}`,
  method,
  path,
  body: json ? { json } : undefined,
  headers: { "content-type": "application/json" },
  status: 200,
  shape,
}));
