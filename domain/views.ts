/**
 * JSON bodies of the read endpoints (docs/api-decisions.md): the menu, the search and
 * (from switch-view.ts) the switch view. Ids become string keys; groups and members keep
 * the menu's name order on the wire (see ordered-record.ts).
 */
import type { Caller } from "./access";
import type { components } from "../generated/api";
import { orderedJson, orderedRecord } from "./ordered-record";
import { DeviceRecord, GroupRecord, connectorType, connectorTypeName, defaultView, defaultViewName } from "./records";
import { apiUrl, switchUrl } from "./urls";

export { switchView } from "./switch-view";
export type {
  SwitchJson,
  SwitchSectionJson,
  SwitchViewInput,
  VlanJson,
  DevicePoeJson,
  PowerSupplyJson,
} from "./switch-view";
export type { InterfaceJson, EthernetAddressJson, NeighborJson, PoePortJson, InterfaceMode } from "./interface-view";

/** A menu as access.menuGroups() builds it: groups and members already filtered and sorted. */
export type MenuInput = readonly { group: GroupRecord; members: readonly DeviceRecord[] }[];

type Schemas = components["schemas"];
export type MemberJson = Schemas["MenuMember"];
export type MenuJson = Schemas["Menu"];
export type SearchJson = Schemas["SearchResult"];
export type ApiRootJson = Schemas["ApiRoot"];

/** GET api/: absolute links; admin only for superusers. */
export function apiRootView(caller: Caller, baseUrl: string): ApiRootJson {
  return {
    switches: apiUrl(baseUrl, "switches/"),
    stats: apiUrl(baseUrl, "stats/"),
    environment: apiUrl(baseUrl, "environment/"),
    schema: apiUrl(baseUrl, "schema/"),
    ...(caller.user.is_superuser ? { admin: apiUrl(baseUrl, "admin/") } : {}),
  };
}

/** GET api/admin/: the administered resources. */
export function adminRootView(baseUrl: string): Schemas["AdminRoot"] {
  const at = (path: string) => apiUrl(baseUrl, `admin/${path}`);
  return {
    users: at("users/"),
    switches: at("switches/"),
    // OpenL2M's paths (api/admin/switchgroups/ etc. are their aliases)
    switchgroups: at("switches/switchgroups/"),
    snmpprofiles: at("switches/snmpprofiles/"),
    credentials: at("switches/netmikoprofiles/"),
    log: at("log/"),
  };
}

export function memberView(device: DeviceRecord, groupId: number, baseUrl: string): MemberJson {
  return {
    name: device.name,
    hostname: device.hostname,
    description: device.description,
    default_view: defaultView(device.default_view),
    default_view_name: defaultViewName(device.default_view),
    url: switchUrl(baseUrl, groupId, device.id),
    connector_type: connectorType(device.connector_type),
    connector_type_name: connectorTypeName(device.connector_type),
    read_only: device.read_only,
    primary_ipv4: device.primary_ipv4,
    comments: device.comments,
    driver_info: device.driver_info,
    nms_id: device.nms_id ?? "",
  };
}

function menuUser(caller: Caller): MenuJson["user"] {
  const profile = caller.user.profile;
  return {
    name: caller.user.username,
    read_only: profile.read_only,
    vlan_edit: profile.vlan_edit,
    allow_poe_toggle: profile.allow_poe_toggle,
    edit_if_descr: profile.edit_if_descr,
  };
}

/** GET api/switches/ */
export function menuView(caller: Caller, menu: MenuInput, baseUrl: string): MenuJson {
  return {
    user: menuUser(caller),
    groups: orderedRecord(
      menu.map(({ group, members }) => [
        String(group.id),
        {
          name: group.name,
          description: group.description,
          display_name: group.display_name,
          read_only: group.read_only,
          comments: group.comments,
          members: orderedRecord(members.map((device) => [String(device.id), memberView(device, group.id, baseUrl)])),
        },
      ]),
    ),
  };
}

/**
 * The JSON text of menuView(...).groups, byte for byte, written directly: groups and
 * members in menu order, each member as memberView writes it. It depends on the menu and
 * the base URL only, not on who asks (app/menu-cache.ts keeps it for callers that see the
 * same groups).
 */
export function menuGroupsJson(menu: MenuInput, baseUrl: string): string {
  return orderedJson(
    menu.map(({ group, members }) => {
      const fields = JSON.stringify({
        name: group.name,
        description: group.description,
        display_name: group.display_name,
        read_only: group.read_only,
        comments: group.comments,
      });
      const memberText = orderedJson(
        members.map((device) => [String(device.id), JSON.stringify(memberView(device, group.id, baseUrl))]),
      );
      // the fields' object, still open, with its members last
      return [String(group.id), `${fields.slice(0, -1)},"members":${memberText}}`];
    }),
  );
}

/** The JSON text of GET api/switches/ before and after its groups' text (menuGroupsJson). */
export function menuJsonAround(caller: Caller): [string, string] {
  return [`{"user":${JSON.stringify(menuUser(caller))},"groups":`, "}"];
}

/** The JSON text of GET api/switches/ (what JSON.stringify(menuView(...)) writes) from the groups' text. */
export function menuJson(caller: Caller, groupsJson: string): string {
  const [head, tail] = menuJsonAround(caller);
  return head + groupsJson + tail;
}

function matches(device: DeviceRecord, wanted: string): boolean {
  return device.name.toLowerCase() === wanted || device.hostname.toLowerCase() === wanted;
}

/**
 * GET api/switches/search/<text>/: exact, case-insensitive match on name or hostname
 * within the menu. `switch` is the first match in menu order; `groups` lists every group
 * holding a match, its `switch_url` pointing at that same device where the group has it.
 * null when nothing matches (the handler answers 404 deviceNotFound(text)).
 */
export function searchView(menu: MenuInput, text: string, baseUrl: string): SearchJson | null {
  const wanted = text.toLowerCase();
  const hits = menu
    .map(({ group, members }) => ({ group, found: members.filter((device) => matches(device, wanted)) }))
    .filter((hit) => hit.found.length > 0);
  if (hits.length === 0) return null;

  const first = hits[0].found[0];
  const { url: _url, ...fields } = memberView(first, hits[0].group.id, baseUrl);
  return {
    switch: { ...fields, id: String(first.id) },
    groups: orderedRecord(
      hits.map(({ group, found }) => {
        const device = found.find((candidate) => candidate.id === first.id) ?? found[0];
        return [
          String(group.id),
          {
            name: group.name,
            description: group.description,
            id: String(group.id),
            read_only: group.read_only,
            switch_url: switchUrl(baseUrl, group.id, device.id),
          },
        ];
      }),
    ),
  };
}
