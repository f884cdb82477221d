/**
 * What a directory login changes on the local account: pure decisions, no I/O.
 *
 * A right is "managed by the directory" when its LDAP_GROUP_* variable names at least one
 * group. At every directory login a managed right is set to whether the user is a member
 * of one of its groups now, so a user removed from the group loses it at the next login.
 * Rights whose variable is empty are never touched. For device groups only the switch
 * groups named in LDAP_GROUP_DEVICE_GROUPS are managed; memberships in other switch groups
 * (given by an administrator) stay.
 */
import type { GroupMappings } from "./config";
import { normalizeDn } from "./escape";

export interface DirectoryPerson {
  /** the entry's DN as the server returned it */
  dn: string;
  /** the values of the entry's username attribute (LDAP_ATTR_USERNAME, uid by default) */
  names: string[];
  firstName: string;
  lastName: string;
  email: string;
  /** DNs of the groups the entry is a member of (any spelling; compared normalised) */
  groups: string[];
}

export interface CurrentAccount {
  is_superuser: boolean;
  is_staff: boolean;
  read_only: boolean;
  vlan_edit: boolean;
  switchgroups: number[];
}

export interface AccountPlan {
  fields: { first_name: string; last_name: string; email: string; is_superuser?: boolean; is_staff?: boolean };
  profile: { read_only?: boolean; vlan_edit?: boolean };
  /** the complete new list of switch group ids, or undefined to leave memberships alone */
  switchgroups?: number[];
  /** switch group names mapped in LDAP_GROUP_DEVICE_GROUPS that do not exist here */
  missingGroups: string[];
}

/** the columns' sizes in the users table; longer directory values are cut, not refused */
const LIMITS = { first_name: 150, last_name: 150, email: 254 };

const cut = (s: string, n: number) => [...s].slice(0, n).join("");

export function planAccount(
  mappings: GroupMappings,
  person: DirectoryPerson,
  current: CurrentAccount | null,
  switchGroupIds: ReadonlyMap<string, number>,
): AccountPlan {
  const member = new Set(person.groups.map((g) => normalizeDn(g)).filter((g): g is string => !!g));
  const inAny = (dns: string[]) => dns.some((dn) => member.has(dn));
  const managed = (dns: string[]) => dns.length > 0;

  const plan: AccountPlan = {
    fields: {
      first_name: cut(person.firstName, LIMITS.first_name),
      last_name: cut(person.lastName, LIMITS.last_name),
      email: cut(person.email, LIMITS.email),
    },
    profile: {},
    missingGroups: [],
  };
  if (managed(mappings.superuser)) plan.fields.is_superuser = inAny(mappings.superuser);
  if (managed(mappings.staff)) plan.fields.is_staff = inAny(mappings.staff);
  if (managed(mappings.readOnly)) plan.profile.read_only = inAny(mappings.readOnly);
  if (managed(mappings.vlanEdit)) plan.profile.vlan_edit = inAny(mappings.vlanEdit);

  if (mappings.deviceGroups.length) {
    const managedIds = new Set<number>();
    const wanted = new Set<number>();
    const missing = new Set<string>();
    for (const m of mappings.deviceGroups) {
      const id = switchGroupIds.get(m.group);
      if (id === undefined) {
        missing.add(m.group);
        continue;
      }
      managedIds.add(id);
      if (member.has(m.dn)) wanted.add(id);
    }
    const kept = (current?.switchgroups ?? []).filter((id) => !managedIds.has(id));
    plan.switchgroups = [...new Set([...kept, ...wanted])].sort((a, b) => a - b);
    plan.missingGroups = [...missing];
  }
  return plan;
}
