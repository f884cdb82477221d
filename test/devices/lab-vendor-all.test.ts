/**
 * Every lab profile, the same checks: it starts, its whole tree walks cleanly with
 * Debian's snmpbulkwalk (increasing OIDs, no error), its interface table is the model's,
 * and the lab's command line starts it by name.
 */
import { ifTable, ifXTable, system } from "../../mib/oids";
import { profileIds, startLabSwitch, type ProfileId } from "../../lab";
import { runLabCli } from "../../lab/cli";
import { profiles } from "../../lab/profiles";
import { hasTool, runTool, sessionTo } from "../support/snmp-client";
import { walkMap } from "./lab-vendor-helpers";

const all = profileIds.map((id) => [id] as [ProfileId]);

describe("every lab profile", () => {
  it("lists the eleven families", () => {
    expect(profileIds).toEqual([
      "generic",
      "ciscosb",
      "cisco",
      "procurve",
      "comware",
      "arubacx",
      "dell",
      "arista",
      "juniper",
      "edgeswitch",
      "fs",
    ]);
  });

  it.each(all)("%s: serves its sysObjectID and exactly the model's interfaces", async (profile) => {
    const lab = await startLabSwitch({ profile, ports: 24, seed: 5, poePorts: [1, 2] });
    const s = sessionTo(lab);
    try {
      const [oid, name] = await s.get([`${system.sysObjectID}.0`, `${system.sysName}.0`]);
      expect(oid.value).toBe(profiles[profile].sysObjectID(24));
      expect(String(name.value)).toBe(`lab-${profile}-24`);
      const types = await walkMap(s, ifTable.ifType);
      const names = await walkMap(s, ifXTable.ifName);
      expect([...types].map(([k, v]) => [Number(k), v])).toEqual(
        lab.model.interfaces.map((i) => [i.ifIndex, i.ifType]),
      );
      for (const n of [1, 24])
        expect(String(names.get(String(lab.model.port(n).ifIndex)))).toBe(profiles[profile].portName(n));
    } finally {
      s.close();
      await lab.stop();
    }
  });

  const tool = hasTool("snmpbulkwalk") ? it.each(all) : it.skip.each(all);
  tool("%s: walks whole with Debian's snmpbulkwalk, OIDs increasing", async (profile) => {
    const lab = await startLabSwitch({ profile, ports: 48, seed: 7, poePorts: "all" });
    try {
      const r = await runTool("snmpbulkwalk", ["-v2c", "-c", "public", "-Cr50", `127.0.0.1:${lab.port}`, "1.3.6.1"]);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      const lines = r.stdout.split("\n").filter((l) => l.startsWith("."));
      expect(lines.length).toBeGreaterThan(500);
    } finally {
      await lab.stop();
    }
  });

  it("starts any profile from the lab's command line", async () => {
    const lines: string[] = [];
    const handle = await runLabCli(["--profile", "comware", "--ports", "8"], {
      out: (l) => lines.push(l),
      handleSignals: false,
    });
    try {
      expect(handle.switches[0].model.profile.id).toBe("comware");
      expect(lines.join("\n")).toContain("comware, 8 ports, needs save");
    } finally {
      await handle.stop();
    }
  });
});
