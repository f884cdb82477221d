/**
 * The recording reader on a few real recordings. Every expectation below was read off the
 * recording files by hand (grep of the OID lines), so these tests check the counting
 * rules of test/support/snmprec-facts.ts, not the reverse. Skipped, with the reason
 * printed, when the third-party recordings are not beside the project.
 */
import { listContexts, recordingPath, snmprecDir, snmprecFacts, type RecordingFacts } from "../support/snmprec-facts";

const dir = snmprecDir();
if (!dir)
  console.log(
    "snmprec-facts tests skipped: no ../shared/fixtures/snmprec beside the project (set SWITCHDESK_FIXTURES to point elsewhere)",
  );
const describeIf = dir ? describe : describe.skip;

function facts(name: string): RecordingFacts {
  const file = recordingPath(name);
  if (!file) throw new Error(`recording ${name} is missing from ${dir}`);
  return snmprecFacts(file);
}

describeIf("facts counted from a recording", () => {
  it("Cisco 2960-X: VTP VLANs without the 1002-1005 set, vmVlan access and trunk native VLANs, PoE through the entity link", () => {
    const f = facts("ios_2960x");
    expect(f.sysObjectID).toBe("1.3.6.1.4.1.9.1.1208");
    expect(f.sysName).toBe("<private>");
    expect(f.interfaces.size).toBe(146);
    expect(f.interfaces.get(10101)).toMatchObject({ name: "Gi1/0/1", type: 6 });
    // vtpVlanTable: 1 default and 99 VLAN0099 are ethernet; 1002..1005 are FDDI/Token Ring
    expect(f.vlanSource).toBe("vtp");
    expect([...f.vlans]).toEqual([
      [1, "default"],
      [99, "VLAN0099"],
    ]);
    expect(f.untaggedSource).toBe("cisco-vmvlan-trunk");
    // Gi1/0/1: not trunking (encapsulation notApplicable), vmVlan 525
    expect(f.untagged.get(10101)).toBe(525);
    // Gi1/0/3: trunking dot1Q, native VLAN 534, no vmVlan row
    expect(f.interfaces.get(10103)?.name).toBe("Gi1/0/3");
    expect(f.untagged.get(10103)).toBe(534);
    // cpeExtPsePortEnable.1.1 = auto, entity 1010 -> ifIndex 10101
    expect(f.poeAdmin.get(10101)).toBe(true);
    expect(f.poeAdmin.size).toBe(120);
    expect(f.poeUnmapped).toBe(0);
    expect(f.lldpNeighbors.size).toBe(0);
    expect([...f.ipInterfaces]).toEqual([99]);
  });

  it("Cisco 2960-S with a per-VLAN context: VTP off, VLAN 98, the @98 file listed", () => {
    const f = facts("ios_stp-vlans");
    expect([...f.vlans]).toEqual([
      [1, "default"],
      [98, "routing"],
    ]);
    expect(f.untagged.size).toBe(28);
    expect(new Set(f.untagged.values())).toEqual(new Set([1]));
    expect(listContexts("ios_stp-vlans").map((c) => c.context)).toEqual(["98"]);
    expect(listContexts("ios_2960x")).toEqual([]);
  });

  it("Linksys: Q-BRIDGE VLANs from static names and the current table, PoE ports numbered by ifIndex", () => {
    const f = facts("linksys-ss_lgs318p");
    expect(f.interfaces.size).toBe(30);
    expect(f.vlanSource).toBe("q-bridge");
    // VLAN 1 is only in the current table (no static name), 11 only has a static name
    expect([...f.vlans]).toEqual([
      [1, ""],
      [5, "DMZ"],
      [11, "GUEST"],
      [20, "Cameras"],
    ]);
    expect(f.untaggedSource).toBe("dot1q-pvid");
    expect(f.untagged.size).toBe(22);
    // pethPsePortAdminEnable.1.49 = false(2) .. 1.62-1.66 = true(1)
    expect(f.poeAdmin.size).toBe(18);
    expect(f.poeAdmin.get(49)).toBe(false);
    expect(f.poeAdmin.get(62)).toBe(true);
    expect([...f.poeAdmin.values()].filter(Boolean)).toHaveLength(5);
    // lldpRemTable local ports 62 (gi14) and 64 (gi16)
    expect([...f.lldpNeighbors]).toEqual([
      [62, 1],
      [64, 1],
    ]);
  });

  it("Juniper QFX: VLAN tags and names from jnxL2aldVlanTable, PVIDs through the bridge port map", () => {
    const f = facts("junos_qfx5100");
    expect(f.vlanSource).toBe("jnx-l2ald");
    expect([...f.vlans]).toEqual([
      [1, "default"],
      [23, "noc-mgmt"],
      [999, "UNUSED"],
      [3856, "vlan3856"],
      [3884, "vlan3884"],
      [4002, "vlan4002"],
      [4004, "vlan4004"],
      [4005, "vlan4005"],
    ]);
    // dot1qPvid.4098 = 4004 and bridge port 4098 is ifIndex 520 (xe-0/0/2)
    expect(f.interfaces.get(520)?.name).toBe("xe-0/0/2");
    expect(f.untagged.get(520)).toBe(4004);
    // dot1qPvid.4106 = 3856 but bridge port 4106 has no dot1dBasePortIfIndex row
    expect(f.untaggedUnmapped).toBe(1);
    expect(f.untagged.size).toBe(6);
    expect([...f.lldpNeighbors]).toEqual([
      [513, 1],
      [518, 1],
    ]);
  });

  it("Dell OS10: LLDP local port numbers are neither ifIndex nor bridge port and map by port name", () => {
    const f = facts("dell-os10");
    expect(f.interfaces.has(612)).toBe(false);
    // lldpLocPortId.612 = ethernet1/1/25 = ifName.37; .4 = mgmt1/1/1 = ifName.10
    expect([...f.lldpNeighbors]).toEqual([
      [10, 1],
      [37, 1],
      [38, 1],
      [41, 1],
      [42, 1],
    ]);
    expect(f.lldpUnmapped).toBe(0);
    // no dot1qPvid in this recording
    expect(f.untaggedSource).toBe("none");
    expect([...f.vlans.keys()]).toEqual([1, 4094]);
  });

  it("AOS-CX stack: no VLAN table, so VLANs are the PVID values; PVID 0 is no VLAN", () => {
    const f = facts("arubaos-cx_6300_vsf_stack");
    expect(f.sysName).toBeNull();
    expect(f.interfaces.size).toBe(315);
    expect(f.bridgePorts.size).toBe(300);
    expect(f.vlanSource).toBe("pvid-values");
    // 300 dot1qPvid rows, bridge port 112 has PVID 0
    expect(f.untagged.size).toBe(299);
    expect(f.vlans.has(0)).toBe(false);
    expect(f.vlans.get(2051)).toBe("");
  });
});
