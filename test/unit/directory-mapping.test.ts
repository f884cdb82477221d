/** What a directory login changes on the local account (pure decisions). */
import { planAccount, type CurrentAccount, type DirectoryPerson } from "../../app/directory/mapping";
import type { GroupMappings } from "../../app/directory/config";

const G = (cn: string) => `cn=${cn},ou=groups,dc=example,dc=org`;

const ALL: GroupMappings = {
  superuser: [G("admins")],
  staff: [G("staff"), G("ops")],
  readOnly: [G("readers")],
  vlanEdit: [G("vlan")],
  deviceGroups: [
    { dn: G("netops"), group: "Core" },
    { dn: G("helpdesk"), group: "Access" },
    { dn: G("ops"), group: "Access" },
  ],
};
const NONE: GroupMappings = { superuser: [], staff: [], readOnly: [], vlanEdit: [], deviceGroups: [] };
const IDS = new Map([
  ["Core", 1],
  ["Access", 2],
  ["Local", 3],
]);

const person = (groups: string[], extra: Partial<DirectoryPerson> = {}): DirectoryPerson => ({
  dn: "uid=alice,ou=people,dc=example,dc=org",
  names: ["alice"],
  firstName: "Alice",
  lastName: "Liddell",
  email: "alice@example.org",
  groups,
  ...extra,
});
const current = (c: Partial<CurrentAccount> = {}): CurrentAccount => ({
  is_superuser: false,
  is_staff: false,
  read_only: false,
  vlan_edit: false,
  switchgroups: [],
  ...c,
});

describe("planAccount", () => {
  it("gives every mapped right a member holds, whatever the DN spelling the server used", () => {
    const p = planAccount(
      ALL,
      person([
        "CN=Admins,OU=Groups,DC=Example,DC=Org",
        "cn=readers, ou=groups, dc=example, dc=org",
        G("vlan"),
        G("netops"),
      ]),
      null,
      IDS,
    );
    expect(p.fields).toEqual({
      first_name: "Alice",
      last_name: "Liddell",
      email: "alice@example.org",
      is_superuser: true,
      is_staff: false,
    });
    expect(p.profile).toEqual({ read_only: true, vlan_edit: true });
    expect(p.switchgroups).toEqual([1]);
  });

  it("takes away mapped rights of a user no longer in the groups", () => {
    const p = planAccount(
      ALL,
      person([]),
      current({ is_superuser: true, is_staff: true, read_only: true, vlan_edit: true, switchgroups: [1, 2] }),
      IDS,
    );
    expect(p.fields).toMatchObject({ is_superuser: false, is_staff: false });
    expect(p.profile).toEqual({ read_only: false, vlan_edit: false });
    expect(p.switchgroups).toEqual([]);
  });

  it("any of several groups gives a right; one group may give several", () => {
    const p = planAccount(ALL, person([G("ops")]), null, IDS);
    expect(p.fields.is_staff).toBe(true);
    expect(p.switchgroups).toEqual([2]);
  });

  it("keeps memberships of switch groups the directory does not manage", () => {
    const p = planAccount(ALL, person([G("helpdesk")]), current({ switchgroups: [1, 3] }), IDS);
    expect(p.switchgroups).toEqual([2, 3]);
  });

  it("touches nothing that is not mapped", () => {
    const p = planAccount(NONE, person([G("admins")]), current({ is_staff: true, switchgroups: [3] }), IDS);
    expect(p.fields).toEqual({ first_name: "Alice", last_name: "Liddell", email: "alice@example.org" });
    expect(p.profile).toEqual({});
    expect(p.switchgroups).toBeUndefined();
  });

  it("reports mapped switch groups that do not exist and still maps the others", () => {
    const mappings = {
      ...NONE,
      deviceGroups: [
        { dn: G("netops"), group: "Core" },
        { dn: G("netops"), group: "Gone" },
      ],
    };
    const p = planAccount(mappings, person([G("netops")]), null, IDS);
    expect(p.switchgroups).toEqual([1]);
    expect(p.missingGroups).toEqual(["Gone"]);
  });

  it("cuts directory values to the column sizes", () => {
    const p = planAccount(NONE, person([], { firstName: "x".repeat(400), email: "e".repeat(300) }), null, IDS);
    expect(p.fields.first_name).toHaveLength(150);
    expect(p.fields.email).toHaveLength(254);
  });

  it("ignores group values that are not DNs", () => {
    const p = planAccount(ALL, person(["not a dn", ""]), null, IDS);
    expect(p.fields.is_superuser).toBe(false);
  });
});
