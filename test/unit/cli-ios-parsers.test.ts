/**
 * The IOS parsers against real device output: every `.raw` file of the commands the
 * driver reads parses, and the fields the driver uses agree with the `.yml` beside it
 * (`parsed_sample`, one entry per row, in order). The fixtures live beside the project
 * (../shared/fixtures/cli/, or SWITCHDESK_FIXTURES); without them these tests are skipped,
 * not passed.
 */
import fs from "node:fs";
import path from "node:path";
import YAML from "yaml";
import { parseInterfacesDescription } from "../../drivers/families/cisco-ios-cli/parse-interfaces-description";
import {
  duplexOf,
  parseInterfacesStatus,
  speedMbps,
} from "../../drivers/families/cisco-ios-cli/parse-interfaces-status";
import { parseLldpNeighborsDetail } from "../../drivers/families/cisco-ios-cli/parse-lldp-neighbors";
import { parsePowerInline } from "../../drivers/families/cisco-ios-cli/parse-power-inline";
import { parseRunningInterfaces } from "../../drivers/families/cisco-ios-cli/parse-running-interface";
import { expandVlanList, parseSwitchport } from "../../drivers/families/cisco-ios-cli/parse-switchport";
import { parseVlanBrief } from "../../drivers/families/cisco-ios-cli/parse-vlan-brief";
import { fixturesDir } from "../support/fixtures";

const FIXTURES = path.join(fixturesDir, "cli", "cisco_ios");
const present = fs.existsSync(FIXTURES);
if (!present) console.warn(`cli-ios-parsers: skipped, no fixtures at ${path.relative(process.cwd(), FIXTURES)}`);
const describeFixtures = present ? describe : describe.skip;

type Sample = Record<string, string | string[]>;

/** [file name, raw text, parsed_sample] of every .raw file of one command */
function cases(command: string): Array<[string, string, Sample[]]> {
  const dir = path.join(FIXTURES, command);
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".raw"))
    .sort()
    .map((f) => {
      const raw = fs.readFileSync(path.join(dir, f), "utf8");
      const yml = YAML.parse(fs.readFileSync(path.join(dir, f.replace(/\.raw$/, ".yml")), "utf8")) as {
        parsed_sample: Sample[] | null;
      };
      return [f, raw, yml.parsed_sample ?? []];
    });
}

describeFixtures("IOS parsers against ntc-templates fixtures", () => {
  test.each(present ? cases("show_interfaces_status") : [])("show interfaces status: %s", (_f, raw, sample) => {
    const rows = parseInterfacesStatus(raw);
    expect(
      rows.map((r) => ({
        port: r.port,
        name: r.name,
        status: r.status,
        vlan_id: r.vlan,
        duplex: r.duplex,
        speed: r.speed,
        type: r.type,
      })),
    ).toEqual(
      sample.map((s) => ({
        port: s.port,
        name: s.name,
        status: s.status,
        vlan_id: s.vlan_id,
        duplex: s.duplex,
        speed: s.speed,
        type: s.type,
      })),
    );
  });

  test.each(present ? cases("show_vlan") : [])("show vlan (brief table): %s", (_f, raw, sample) => {
    const rows = parseVlanBrief(raw);
    expect(
      rows.map((r) => ({ vlan_id: String(r.id), vlan_name: r.name, status: r.status, interfaces: r.ports })),
    ).toEqual(
      sample.map((s) => ({ vlan_id: s.vlan_id, vlan_name: s.vlan_name, status: s.status, interfaces: s.interfaces })),
    );
  });

  test.each(present ? cases("show_interfaces_switchport") : [])("show interfaces switchport: %s", (_f, raw, sample) => {
    const rows = parseSwitchport(raw);
    expect(
      rows.map((r) => ({
        interface: r.interface,
        switchport: r.switchport,
        admin_mode: r.adminMode,
        mode: r.operMode,
        access_vlan: r.accessVlan,
        native_vlan: r.nativeVlan,
        voice_vlan: r.voiceVlan,
        trunking_vlans: r.trunkingVlans,
      })),
    ).toEqual(
      sample.map((s) => ({
        interface: s.interface,
        switchport: s.switchport,
        admin_mode: s.admin_mode,
        mode: s.mode,
        access_vlan: s.access_vlan,
        native_vlan: s.native_vlan,
        voice_vlan: s.voice_vlan,
        trunking_vlans: s.trunking_vlans,
      })),
    );
  });

  test.each(present ? cases("show_power_inline") : [])("show power inline: %s", (_f, raw, sample) => {
    const { ports } = parsePowerInline(raw);
    expect(
      ports.map((r) => ({
        interface: r.interface,
        admin_status: r.admin,
        operational_status: r.oper,
        power: r.power,
        device: r.device,
        class: r.powerClass,
        max: r.max,
      })),
    ).toEqual(
      sample.map((s) => ({
        interface: s.interface,
        admin_status: s.admin_status,
        operational_status: s.operational_status,
        power: Number(s.power),
        device: s.device,
        class: s.class,
        max: s.max === "" ? 0 : Number(s.max),
      })),
    );
  });

  test.each(present ? cases("show_interfaces_description") : [])(
    "show interfaces description: %s",
    (_f, raw, sample) => {
      expect(
        parseInterfacesDescription(raw).map((r) => ({
          port: r.interface,
          status: r.status,
          protocol: r.protocol,
          description: r.description,
        })),
      ).toEqual(
        sample.map((s) => ({ port: s.port, status: s.status, protocol: s.protocol, description: s.description })),
      );
    },
  );

  test.each(present ? cases("show_lldp_neighbors_detail") : [])("show lldp neighbors detail: %s", (_f, raw, sample) => {
    const rows = parseLldpNeighborsDetail(raw);
    expect(
      rows.map((r) => ({
        local_interface: r.localInterface,
        chassis_id: r.chassisId,
        neighbor_port_id: r.portId,
        neighbor_interface: r.portDescription,
        neighbor_name: r.systemName,
        mgmt_address: r.managementIpv4,
        capabilities: r.enabledCapabilities,
        // the fixtures keep the description's first line
        neighbor_description: r.systemDescription.split("\n")[0],
      })),
    ).toEqual(
      sample.map((s) => ({
        local_interface: s.local_interface,
        chassis_id: s.chassis_id,
        neighbor_port_id: s.neighbor_port_id,
        neighbor_interface: s.neighbor_interface,
        neighbor_name: s.neighbor_name,
        mgmt_address: s.mgmt_address,
        capabilities: s.capabilities,
        neighbor_description: s.neighbor_description,
      })),
    );
  });

  test.each(present ? cases("show_running-config_interface") : [])(
    "show running-config interface: %s",
    (_f, raw, sample) => {
      expect(parseRunningInterfaces(raw).map((r) => ({ interface: r.interface, description: r.description }))).toEqual(
        sample.map((s) => ({ interface: s.interface, description: s.description })),
      );
    },
  );

  test("the budget of every module is read, in both layouts", () => {
    const modules = parsePowerInline(
      fs.readFileSync(path.join(FIXTURES, "show_power_inline/cisco_ios_show_power_inline_whitespace.raw"), "utf8"),
    );
    expect(modules.budgets.map((b) => b.module)).toEqual([1, 2, 3, 4, 5]);
    expect(modules.budgets[0]).toEqual({ module: 1, available: 1827, used: 526.6, remaining: 1300.4 });
    const single = parsePowerInline(
      fs.readFileSync(path.join(FIXTURES, "show_power_inline/cisco_ios_show_power_inline_ios12.raw"), "utf8"),
    );
    expect(single.budgets).toEqual([{ module: 1, available: 370, used: 55.6, remaining: 314.4 }]);
  });
});

describe("IOS column values", () => {
  test("speeds become Mbps, unknown speeds 0", () => {
    expect(["a-1000", "a-100", "10G", "a-10G", "1000", "auto", "", "a-2500"].map(speedMbps)).toEqual([
      1000, 100, 10000, 10000, 1000, 0, 0, 2500,
    ]);
  });

  test("duplex columns", () => {
    expect(["a-full", "full", "a-half", "half", "auto", ""].map(duplexOf)).toEqual([
      "Full",
      "Full",
      "Half",
      "Half",
      "Unknown",
      "Unknown",
    ]);
  });

  test("trunk VLAN lists expand to the switch's VLANs only; ALL is every one of them", () => {
    const known = new Set([1, 10, 12, 31, 35, 40, 900, 4000]);
    expect(expandVlanList(["1", "12", "31-36", "900"], known)).toEqual([1, 12, 31, 35, 900]);
    expect(expandVlanList(["ALL"], known)).toEqual([1, 10, 12, 31, 35, 40, 900, 4000]);
    expect(expandVlanList(["none"], known)).toEqual([]);
    expect(expandVlanList(["2-4094"], known)).toEqual([10, 12, 31, 35, 40, 900, 4000]);
  });
});
