/** Starting lab switches: a VirtualSwitch behind an SnmpAgent on 127.0.0.1. */
import type { SnmpTarget } from "../model/targets";
import type { LabCounters, LabFaults, LabSwitch, LabSwitchOptions } from "./types";
import { VirtualSwitch } from "./model";
import { writeRecording } from "./recording";
import { SnmpAgent } from "./snmp/agent";
import { switchProvider } from "./snmp/switch-mib";

const TARGET_TIMEOUT_MS = 1000;
const TARGET_RETRIES = 1;

export async function startLabSwitch(opts: LabSwitchOptions = {}): Promise<LabSwitch> {
  const profile = opts.profile ?? "generic";
  const ports = opts.ports ?? 24;
  const model = new VirtualSwitch({
    profile,
    ports,
    poePorts: opts.poePorts,
    name: opts.name,
    seed: opts.seed,
    routedPorts: opts.routedPorts,
    lagPorts: opts.lagPorts,
    dot1xPorts: opts.dot1xPorts,
    portsPerSlot: opts.portsPerSlot,
    extraVlans: opts.extraVlans,
    macEntries: opts.macEntries,
    lldpNeighbours: opts.lldpNeighbours,
  });
  const qbridge = opts.qbridge ?? "auto";
  if (qbridge !== "auto" && qbridge !== "strict")
    throw new RangeError(`qbridge must be "auto" or "strict", got ${String(qbridge)}`);
  const options: LabSwitch["options"] = {
    profile,
    ports,
    poePorts: opts.poePorts ?? model.profile.defaultPoe,
    name: model.system.sysName,
    seed: model.seed,
    community: opts.community ?? "public",
    writeCommunity: opts.writeCommunity ?? "private",
    latencyMs: opts.latencyMs ?? 0,
    v3: opts.v3,
    maxBulkValues: opts.maxBulkValues,
    maxResponseBytes: opts.maxResponseBytes,
    oversize: opts.oversize ?? "tooBig",
    portsPerSlot: opts.portsPerSlot,
    extraVlans: opts.extraVlans ?? 0,
    macEntries: model.fdb.length,
    lldpNeighbours: model.lldp.length,
    qbridge,
    routedPorts: model.ethernetPorts.filter((p) => p.ipv4).map((p) => p.portNumber!),
    lagPorts: model.ethernetPorts.filter((p) => p.lagMemberOf !== undefined).map((p) => p.portNumber!),
    dot1xPorts: model.ethernetPorts.filter((p) => p.dot1x).map((p) => p.portNumber!),
    vendor: opts.vendor ?? {},
  };
  const agent = new SnmpAgent(switchProvider(model, qbridge, options.vendor), {
    readCommunity: options.community,
    writeCommunity: options.writeCommunity,
    v3Users: opts.v3 ? [opts.v3] : [],
    latencyMs: options.latencyMs,
    maxBulkValues: opts.maxBulkValues,
    maxResponseBytes: opts.maxResponseBytes,
    oversize: opts.oversize,
    onRestart: () => model.reboot(),
  });
  const port = await agent.start(opts.port ?? 0);

  const snmpTarget = (t: { version?: "2c" | "3"; write?: boolean } = {}): SnmpTarget => {
    const base = { host: "127.0.0.1", port, timeout_ms: TARGET_TIMEOUT_MS, retries: TARGET_RETRIES };
    if ((t.version ?? "2c") === "2c") {
      return { ...base, version: "2c", community: t.write ? options.writeCommunity : options.community };
    }
    const v3 = options.v3;
    if (!v3) throw new Error(`lab switch ${options.name} has no SNMPv3 user`);
    return {
      ...base,
      version: "3",
      username: v3.username,
      auth_protocol: v3.authProtocol,
      auth_key: v3.authKey,
      priv_protocol: v3.privProtocol,
      priv_key: v3.privKey,
    };
  };

  const faults: LabFaults = agent.faults;
  const counters: LabCounters = agent.counters;
  return {
    model,
    host: "127.0.0.1",
    port,
    options,
    faults,
    counters,
    snmpTarget,
    agent,
    writeRecording: (file) => writeRecording(agent.provider, file),
    stop: () => agent.stop(),
  };
}

/** The demo set: what `npm run lab` and an empty inventory start. */
export function demoLabOptions(): LabSwitchOptions[] {
  const v3 = {
    username: "labuser",
    authProtocol: "SHA-256",
    authKey: "lab-auth-pass",
    privProtocol: "AES",
    privKey: "lab-priv-pass",
  } as const;
  return [
    { profile: "generic", ports: 8, poePorts: [1, 2, 3, 4], name: "lab-generic-8", seed: 8, v3 },
    { profile: "generic", ports: 24, poePorts: "all", name: "lab-generic-24", seed: 24, v3 },
    {
      profile: "ciscosb",
      ports: 48,
      poePorts: Array.from({ length: 24 }, (_, i) => i + 1),
      name: "lab-cbs-48",
      seed: 48,
      v3,
    },
  ];
}

/** Three switches on free UDP ports of 127.0.0.1: 8 ports generic (PoE 1-4), 24 generic (PoE all), 48 ciscosb (needs save). */
export async function startDemoLab(): Promise<LabSwitch[]> {
  const started: LabSwitch[] = [];
  try {
    for (const o of demoLabOptions()) started.push(await startLabSwitch(o));
  } catch (e) {
    await Promise.all(started.map((s) => s.stop()));
    throw e;
  }
  return started;
}
