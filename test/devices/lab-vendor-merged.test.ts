/**
 * Where the two lab lines meet: chassis numbering (portsPerSlot) on the profiles that take
 * it and its refusal on the vendor families, extra VLANs next to Cisco's reserved ones,
 * the response-size limit and the request journal in Cisco's per-VLAN contexts, and a
 * recording written of a vendor profile.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { vtp } from "../../mib/cisco";
import { bridge, ifTable, ifXTable, system } from "../../mib/oids";
import { profileIds, startLabSwitch, startRecordingAgent, type LabSwitch } from "../../lab";
import { VirtualSwitch } from "../../lab/model";
import { profiles } from "../../lab/profiles";
import { rlPethPsePortOutputPower } from "../../lab/snmp/switch-mib/lab-oids";
import { ErrorStatus, openSession, sessionTo, type ClientError } from "../support/snmp-client";
import { walkMap } from "./lab-vendor-helpers";

const v3 = {
  username: "mergelab",
  authProtocol: "SHA-256",
  authKey: "merge-auth-pass",
  privProtocol: "AES",
  privKey: "merge-priv-pass",
} as const;

describe("chassis numbering across the profiles", () => {
  it("numbers a ciscosb by slot: gi<s>/0/<m> on bridge port s*1000+m, per-port power at 1.<bridge port>, Po1 kept", async () => {
    const lab = await startLabSwitch({ profile: "ciscosb", ports: 48, portsPerSlot: 24, poePorts: "all", seed: 3 });
    const s = sessionTo(lab);
    try {
      const port25 = lab.model.port(25);
      expect([port25.name, port25.descr, port25.bridgePort]).toEqual(["gi2/0/1", "GigabitEthernet2/0/1", 2001]);
      const names = await walkMap(s, ifXTable.ifName);
      expect(names.get(String(port25.ifIndex))).toEqual(Buffer.from("gi2/0/1"));
      const bridgePorts = [...(await walkMap(s, bridge.dot1dBasePortIfIndex)).keys()].map(Number);
      expect(bridgePorts).toEqual([
        1000,
        ...Array.from({ length: 24 }, (_, i) => 1001 + i),
        ...Array.from({ length: 24 }, (_, i) => 2001 + i),
      ]);
      const power = await walkMap(s, rlPethPsePortOutputPower);
      expect([...power.keys()]).toContain("1.2001");
      expect(power.size).toBe(48);
    } finally {
      s.close();
      await lab.stop();
    }
  });

  const vendors = profileIds.filter((id) => profiles[id].chassis !== true);

  it("is taken by generic and ciscosb only; the nine vendor families keep their numbering", () => {
    expect(profileIds.filter((id) => profiles[id].chassis === true)).toEqual(["generic", "ciscosb"]);
    expect(vendors).toHaveLength(9);
  });

  it.each(vendors.map((id) => [id]))(
    "%s refuses portsPerSlot, naming the profile and its own numbering",
    async (profile) => {
      expect(() => new VirtualSwitch({ profile, ports: 48, portsPerSlot: 24 })).toThrow(
        new RangeError(
          `portsPerSlot is not available on the ${profile} profile: ${(profiles[profile].chassis as { refused: string }).refused}`,
        ),
      );
      await expect(startLabSwitch({ profile, ports: 48, portsPerSlot: 24 })).rejects.toThrow(
        /portsPerSlot is not available/,
      );
      // without the option the family's own numbering is untouched
      const sw = new VirtualSwitch({ profile, ports: 48 });
      expect(sw.port(48).bridgePort).toBe(profiles[profile].portBridgePort(48));
      expect(sw.port(48).name).toBe(profiles[profile].portName(48));
    },
  );
});

describe("extra VLANs on a vendor profile", () => {
  it("skip Cisco's reserved 1002-1005, which the VTP table lists once, as FDDI and Token Ring", async () => {
    const lab = await startLabSwitch({ profile: "cisco", ports: 24, extraVlans: 6, seed: 4 });
    const s = sessionTo(lab);
    try {
      expect(lab.model.vlanIds().filter((id) => id >= 1000)).toEqual([1000, 1001, 1006, 1007, 1008, 1009]);
      const types = await walkMap(s, vtp.vtpVlanType);
      expect([...types].filter(([k]) => Number(k.split(".")[1]) >= 1000)).toEqual([
        ["1.1000", 1],
        ["1.1001", 1],
        ["1.1002", 2],
        ["1.1003", 3],
        ["1.1004", 4],
        ["1.1005", 5],
        ["1.1006", 1],
        ["1.1007", 1],
        ["1.1008", 1],
        ["1.1009", 1],
      ]);
    } finally {
      s.close();
      await lab.stop();
    }
  });

  it("stop at the profile's maxVlans", () => {
    expect(() => new VirtualSwitch({ profile: "edgeswitch", ports: 24, extraVlans: 251 })).toThrow(
      /more than the 255 this profile supports/,
    );
  });
});

describe("the response-size limit and the journal in SNMP contexts", () => {
  // Requests the lab answers (tooBig is an answer) wait up to 5 s: the lab shares this
  // worker's process, and on a busy machine a 1 s wait was once not enough for an answer
  // that came. The one request the lab leaves unanswered keeps a short wait.
  const answered = { timeoutMs: 5000, retries: 0 };
  let lab: LabSwitch;
  beforeAll(async () => {
    lab = await startLabSwitch({ profile: "cisco", ports: 48, seed: 9, v3 });
  });
  afterEach(() => {
    lab.faults.reset();
    lab.counters.reset();
  });
  afterAll(async () => {
    await lab.stop();
  });

  it("answers tooBig in the context public@10 as in the default one, and journals both", async () => {
    const ctx = sessionTo(lab, { community: "public@10", ...answered });
    const plain = sessionTo(lab, answered);
    try {
      lab.faults.maxResponseBytes = 600;
      for (const s of [ctx, plain]) {
        const err = await s.getBulk([bridge.dot1dBasePortIfIndex], 0, 100).catch((e: ClientError) => e);
        expect((err as ClientError).status).toBe(ErrorStatus.TooBig);
      }
      expect(lab.counters.oversize).toBe(2);
      expect(lab.counters.journal.map((e) => e.type)).toEqual(["getBulk", "getBulk"]);
      lab.faults.maxResponseBytes = null;
      expect((await ctx.getBulk([bridge.dot1dBasePortIfIndex], 0, 10)).length).toBe(10);
    } finally {
      ctx.close();
      plain.close();
    }
  });

  it("sends nothing in silent mode to an SNMPv3 context, and still reports an unknown context", async () => {
    const silent = sessionTo(lab, { v3, context: "vlan-10", timeoutMs: 300, retries: 0 });
    const ctx = sessionTo(lab, { v3, context: "vlan-10", ...answered });
    const bad = sessionTo(lab, { v3, context: "vlan-999", ...answered });
    try {
      lab.faults.maxResponseBytes = 600;
      lab.faults.oversize = "silent";
      const err = await silent.getBulk([bridge.dot1dBasePortIfIndex], 0, 100).catch((e: ClientError) => e);
      expect((err as ClientError).name).toBe("RequestTimedOutError");
      expect(lab.counters.oversize).toBe(1);
      const report = await bad.get([`${system.sysName}.0`]).catch((e: ClientError) => e);
      expect((report as ClientError).message).toMatch(/Report/);
      // a small answer in the context passes the limit
      expect((await ctx.get([`${system.sysName}.0`]))[0].value).toEqual(Buffer.from(lab.model.system.sysName));
    } finally {
      silent.close();
      ctx.close();
      bad.close();
    }
  });
});

describe("recordings of vendor profiles", () => {
  it("writes what a cisco lab serves in its default context, and the recording agent serves it back", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-vendor-rec-"));
    const file = path.join(dir, "cisco.snmprec");
    const lab = await startLabSwitch({ profile: "cisco", ports: 24, seed: 6 });
    let written: number;
    try {
      written = lab.writeRecording(file);
    } finally {
      await lab.stop();
    }
    const rec = await startRecordingAgent(file);
    const s = openSession(rec.port);
    try {
      expect(rec.size).toBe(written);
      const [oid] = await s.get([`${system.sysObjectID}.0`]);
      expect(oid.value).toBe(profiles.cisco.sysObjectID(24));
      const names = await walkMap(s, vtp.vtpVlanName);
      expect(names.get("1.1002")).toEqual(Buffer.from("fddi-default"));
      const descrs = await walkMap(s, ifTable.ifDescr);
      expect(descrs.get(String(lab.model.port(1).ifIndex))).toEqual(Buffer.from("GigabitEthernet1/0/1"));
    } finally {
      s.close();
      await rec.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
