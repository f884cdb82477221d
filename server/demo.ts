/**
 * The built-in lab for a newcomer. With SWITCHDESK_DEMO=auto (the default) three
 * simulated switches start on 127.0.0.1 when the inventory holds no device of its own;
 * they are put in a `Demo` group with an SNMP profile, and marked as lab devices so a
 * later start can find and re-point them (their UDP ports change each run). When the lab
 * does not start, its devices are set inactive so nobody waits on them.
 */
import type { Services } from "../handlers/context";
import type { LabSwitch } from "../lab";
import { snmpProfileRow, switchRow } from "../db/inventory";

export const DEMO_GROUP = "Demo";
export const DEMO_PROFILE = "Demo lab (v2c)";

export async function startDemoIfWanted(s: Services, say: (line: string) => void): Promise<{ stop(): Promise<void>; switches: LabSwitch[] } | null> {
  const db = s.store.db;
  const own = await db.selectFrom("switches").select((eb) => eb.fn.countAll().as("n")).where("lab", "=", 0).executeTakeFirstOrThrow();
  const wanted = s.config.demo === "on" || (s.config.demo === "auto" && Number(own.n) === 0);
  if (!wanted) {
    await db.updateTable("switches").set({ status: "inactive" }).where("lab", "=", 1).execute();
    return null;
  }
  const { startDemoLab } = await import("../lab");
  const lab = await startDemoLab();
  try {
    await register(s, lab);
  } catch (e) {
    await Promise.all(lab.map((l) => l.stop()));
    throw e;
  }
  say(
    `Demo lab: ${lab.length} simulated switches in group '${DEMO_GROUP}' on 127.0.0.1 (` +
      lab.map((l) => `${l.options.name}: ${l.options.ports} ports, ${l.options.profile}, udp/${l.port}`).join("; ") +
      `). Set SWITCHDESK_DEMO=0 to turn it off; it stays off once you add a device of your own.`,
  );
  return { switches: lab, stop: async () => void (await Promise.all(lab.map((l) => l.stop()))) };
}

async function register(s: Services, lab: LabSwitch[]): Promise<void> {
  const inv = s.repos.inventory;
  const community = lab[0].snmpTarget({ write: true }).community!;
  let profile = await inv.findByName("snmp_profiles", DEMO_PROFILE);
  const profileValues = snmpProfileRow({
    name: DEMO_PROFILE,
    description: "SNMP v2c read-write community of the built-in lab",
    community_enc: s.secrets.encrypt(community),
    timeout_ms: 1000,
  });
  profile = profile ? (await inv.update("snmp_profiles", profile.id, profileValues))! : await inv.create("snmp_profiles", profileValues);
  const ids: number[] = [];
  for (const l of lab) {
    const values = switchRow({
      name: l.options.name,
      description: `lab switch: ${l.options.ports} ports, ${l.options.profile}`,
      comments: "started by switchdesk's demo lab",
      primary_ipv4: "127.0.0.1",
      snmp_port: l.port,
      snmp_profile_id: profile.id,
      status: "active",
      lab: 1,
    });
    const existing = await inv.findByName("switches", values.name);
    const row = existing ? await inv.update("switches", existing.id, values) : await inv.create("switches", values);
    ids.push(row!.id);
  }
  const group = await inv.findByName("switch_groups", DEMO_GROUP);
  const groupValues = {
    name: DEMO_GROUP,
    description: "Simulated switches of the built-in lab",
    display_name: "Demo lab",
    comments: "",
    read_only: 0,
    allow_poe_toggle: 1,
    edit_if_descr: 1,
    allow_all_vlans: 1,
  };
  const members = [{ relation: "switches" as const, ids }];
  if (group) await inv.update("switch_groups", group.id, {}, [{ relation: "switches", ids: [...new Set([...ids])] }]);
  else await inv.create("switch_groups", groupValues, members);
}
