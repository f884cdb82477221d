/**
 * Device groups (api/admin/switches/switchgroups/, its alias api/admin/switchgroups/, and
 * the YAML import): flags, the VLAN allow-list, the users who see the group and the
 * devices in it. Given lists replace the memberships. OpenL2M's vlan_groups is always
 * empty: switchdesk lists a group's VLAN ids in vlans.
 */
import { checkIds, type Checked, type Resource } from "./resource";
import { Issues, flag, given, name, text, vlanList } from "./fields";
import { ApiInput, isEmpty } from "./api-names";
import { idList } from "./parse";
import { GROUP_COLUMNS, type RelationIds, type Row } from "../../db/inventory";
import type { components } from "../../generated/api";
import { bool } from "../../db/flags";

type Input = Record<string, unknown>;
type GroupRow = Row<"switch_groups">;

/**
 * the fields the check reads: the group's columns and its VLANs; users and switches are
 * references, resolved by the caller
 */
export const GROUP_FIELDS: readonly string[] = [...GROUP_COLUMNS.filter((c) => c !== "id"), "vlans"];

/** The one check of a device group, for the API and the import alike. */
export function checkSwitchGroup(input: Input, current: GroupRow | null, issues: Issues): Checked<"switch_groups"> {
  const columns = given({
    name: name(input, issues, current === null),
    description: text(input, "description", issues, { max: 255 }),
    display_name: text(input, "display_name", issues, { max: 255 }),
    comments: text(input, "comments", issues, { max: 10000, multiline: true }),
    read_only: flag(input, "read_only", issues),
    allow_poe_toggle: flag(input, "allow_poe_toggle", issues),
    edit_if_descr: flag(input, "edit_if_descr", issues),
    allow_all_vlans: flag(input, "allow_all_vlans", issues),
    bulk_edit: flag(input, "bulk_edit", issues),
  });
  const vlans = vlanList(input, "vlans", issues);
  return { columns, secrets: {}, relations: vlans ? [{ relation: "vlans", ids: vlans }] : [] };
}

/** An admin API body (OpenL2M's names) as the check's input. */
export function switchGroupFromApi(body: Record<string, unknown>, _current: GroupRow | null, issues: Issues) {
  const a = new ApiInput(body, issues);
  a.onlyWhen("vlan_groups", isEmpty, "switchdesk has no VLAN groups: list the group's VLAN ids in vlans");
  return a;
}

export const switchGroups: Resource<"switch_groups"> = {
  table: "switch_groups",
  kind: "Switch group",
  invalidId: "Invalid switchgroup id!",
  secretColumns: {},
  check: checkSwitchGroup,
  fromApi: switchGroupFromApi,
  async references(s, body, issues) {
    const relations: RelationIds[] = [];
    if (body.users !== undefined) {
      const ids = idList(body.users, "users");
      await checkIds(s, "users", ids, "users", "user", issues);
      relations.push({ relation: "users", ids });
    }
    if (body.switches !== undefined) {
      const ids = idList(body.switches, "switches");
      await checkIds(s, "switches", ids, "switches", "switch", issues);
      relations.push({ relation: "switches", ids });
    }
    return { columns: {}, relations };
  },
  async views(s, rows) {
    const inv = s.repos.inventory;
    // one row: its own relations; a list: each relation table once
    const lists = async (relation: "vlans" | "users" | "switches") => {
      if (rows.length === 1) return new Map([[rows[0].id, await inv.relationOf(relation, rows[0].id)]]);
      return inv.relationMap(relation);
    };
    const [vlans, users, switches] = await Promise.all([lists("vlans"), lists("users"), lists("switches")]);
    return rows.map((g): components["schemas"]["SwitchGroup"] => ({
      id: g.id,
      name: g.name,
      description: g.description,
      display_name: g.display_name,
      comments: g.comments,
      read_only: bool(g.read_only),
      bulk_edit: bool(g.bulk_edit),
      allow_poe_toggle: bool(g.allow_poe_toggle),
      edit_if_descr: bool(g.edit_if_descr),
      allow_all_vlans: bool(g.allow_all_vlans),
      vlan_groups: [],
      vlans: vlans.get(g.id) ?? [],
      users: users.get(g.id) ?? [],
      switches: switches.get(g.id) ?? [],
    }));
  },
};
