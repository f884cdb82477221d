/**
 * The inventory side of the built-in demo lab: whether the inventory holds devices of its
 * own (then the lab stays off), putting the lab's switches into the `Demo` group with an
 * SNMP profile (re-pointed on each start, since their UDP ports change), and setting them
 * inactive when the lab does not run so that nobody waits on them. The shell starts the
 * lab itself (server/demo.ts).
 */
import { snmpProfileRow, switchRow } from "../db/inventory";
import type { Core } from "./startup";

export const DEMO_GROUP = "Demo";
export const DEMO_PROFILE = "Demo lab (v2c)";

export interface DemoDevice {
  name: string;
  description: string;
  udpPort: number;
}

export async function hasOwnDevices(core: Pick<Core, "repos">): Promise<boolean> {
  return (await core.repos.inventory.countSwitches({ lab: false })) > 0;
}

export async function retireDemoDevices(core: Pick<Core, "repos">): Promise<void> {
  await core.repos.inventory.setLabSwitchStatus("inactive");
}

/** Creates or re-points the demo devices, their profile and their group. */
export async function registerDemoDevices(
  core: Pick<Core, "repos" | "secrets">,
  community: string,
  devices: DemoDevice[],
): Promise<void> {
  const inv = core.repos.inventory;
  const profileValues = snmpProfileRow({
    name: DEMO_PROFILE,
    description: "SNMP v2c read-write community of the built-in lab",
    community_enc: core.secrets.encrypt(community),
    timeout_ms: 1000,
  });
  const stored = await inv.findByName("snmp_profiles", DEMO_PROFILE);
  const profile = stored
    ? (await inv.update("snmp_profiles", stored.id, profileValues))!
    : await inv.create("snmp_profiles", profileValues);
  const ids: number[] = [];
  for (const d of devices) {
    const values = switchRow({
      name: d.name,
      description: d.description,
      comments: "started by switchdesk's demo lab",
      primary_ipv4: "127.0.0.1",
      snmp_port: d.udpPort,
      snmp_profile_id: profile.id,
      status: "active",
      lab: 1,
    });
    const existing = await inv.findByName("switches", values.name);
    const row = existing ? await inv.update("switches", existing.id, values) : await inv.create("switches", values);
    ids.push(row!.id);
  }
  const group = await inv.findByName("switch_groups", DEMO_GROUP);
  if (group) {
    await inv.update("switch_groups", group.id, {}, [{ relation: "switches", ids }]);
    return;
  }
  await inv.create(
    "switch_groups",
    {
      name: DEMO_GROUP,
      description: "Simulated switches of the built-in lab",
      display_name: "Demo lab",
      comments: "",
      read_only: 0,
      allow_poe_toggle: 1,
      edit_if_descr: 1,
      allow_all_vlans: 1,
    },
    [{ relation: "switches", ids }],
  );
}
