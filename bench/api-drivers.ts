/**
 * The basic view of a 48-port switch over each API driver (AOS-CX REST, Junos NETCONF,
 * Arista eAPI) through the service's HTTP API, against the same lab switch read over SNMP
 * by the same service in the same run: one row per driver, its figures beside SNMP's and
 * their ratio. The lab adds the same latency to every answer of every face (each SNMP
 * request, each HTTP request, each NETCONF RPC), so the comparison is of what each
 * protocol costs in requests and waiting, not of the machine.
 *
 * Requests are counted on the face (HTTP requests, RPCs) and on the SNMP agent; an API
 * call's count includes its login and logout (AOS-CX). Round trips are the driver's own
 * count of the waits on the call's critical path (drivers/request-counters.ts).
 */
import { startLabSwitch, type LabSwitch } from "../lab";
import { startLabAoscxFace } from "../lab/aoscx/server";
import { startLabEapiFace } from "../lab/eapi/server";
import { startLabNetconfFace } from "../lab/netconf/face";
import type { ProfileId } from "../lab/profiles";
import { switchRow } from "../db/inventory";
import { fixture, Statuses, type Fixture, type ScenarioOptions } from "./scenarios";
import { scenarioRow, type ScenarioResult } from "./results";
import { median, summary } from "./stats";

interface ApiFace {
  port: number;
  username: string;
  password: string;
  /** requests the face has received so far */
  requests(): number;
  stop(): Promise<void>;
}

interface ApiSubject {
  name: string;
  connector: 1 | 2 | 3;
  profile: ProfileId;
  start(lab: LabSwitch, latencyMs: number): Promise<ApiFace>;
}

const SUBJECTS: ApiSubject[] = [
  {
    name: "aoscx",
    connector: 1,
    profile: "arubacx",
    start: async (lab, latencyMs) => {
      const f = await startLabAoscxFace(lab, { latencyMs });
      return { ...f, requests: () => f.counters.requests, stop: () => f.stop() };
    },
  },
  {
    name: "netconf",
    connector: 2,
    profile: "juniper",
    start: async (lab, latencyMs) => {
      const f = await startLabNetconfFace(lab, { latencyMs });
      let seen = 0;
      // the face keeps the last 1000 RPC names; the bench counts them as they come
      return {
        ...f,
        requests: () => {
          seen += f.counters.rpcs.splice(0).length;
          return seen;
        },
        stop: () => f.stop(),
      };
    },
  },
  {
    name: "eapi",
    connector: 3,
    profile: "arista",
    start: async (lab, latencyMs) => {
      const f = await startLabEapiFace(lab, { latencyMs });
      return { ...f, requests: () => f.counters.requests, stop: () => f.stop() };
    },
  },
];

/** a switch on the API connector, logging in to the face with a credential profile of its own */
async function addApiDevice(f: Fixture, subject: ApiSubject, face: ApiFace): Promise<number> {
  const { inventory } = f.app.services.repos;
  const secrets = f.app.services.secrets;
  const profile = await inventory.create("credentials", {
    name: `bench-${subject.name}`,
    description: "",
    username: face.username,
    password_enc: secrets.encrypt(face.password),
    private_key_enc: null,
    enable_password_enc: null,
    port: face.port,
  });
  const row = await inventory.create(
    "switches",
    switchRow({
      name: `bench-${subject.name}-48`,
      primary_ipv4: "127.0.0.1",
      connector_type: subject.connector,
      driver: { 1: "aruba_aoscx", 2: "junos_netconf", 3: "arista_eapi" }[subject.connector],
      credentials_profile_id: profile.id,
      allow_poe_toggle: 1,
      edit_if_descr: 1,
    }),
    [{ relation: "groups", ids: [f.group] }],
  );
  return row.id;
}

/** `runs` basic views after one warm-up (the first contact pins the certificate or host key) */
async function measure(f: Fixture, url: string, runs: number, count: () => number) {
  const statuses = new Statuses();
  statuses.add(await f.app.request("GET", url, { token: f.token }));
  const ms: number[] = [];
  const requests: number[] = [];
  const roundTrips: number[] = [];
  for (let i = 0; i < runs; i++) {
    const before = count();
    f.app.takeDrivers();
    const a = await f.app.request("GET", url, { token: f.token });
    statuses.add(a);
    ms.push(a.ms);
    requests.push(count() - before);
    roundTrips.push(f.app.takeDrivers().roundTrips);
  }
  return { ...summary(ms), requests: median(requests), roundTrips: median(roundTrips), statuses };
}

/**
 * 200 basic reads through the API against one AOS-CX face, 20 callers at a time: every
 * call logs in and out, and the switch allows a user only a few sessions, so one session
 * left open per call would lock the switch out within a wave. The row gives the errors
 * and the sessions still open at the end (both must be 0).
 */
async function aoscxBurst(o: ScenarioOptions): Promise<ScenarioResult> {
  const f = await fixture();
  const lab = await startLabSwitch({ profile: "arubacx", ports: 48, latencyMs: o.latencyMs, seed: 1 });
  const face = await startLabAoscxFace(lab, { latencyMs: o.latencyMs });
  try {
    const subject = SUBJECTS[0];
    const id = await addApiDevice(f, subject, { ...face, requests: () => face.counters.requests });
    const url = `/api/switches/${f.group}/${id}/`;
    const statuses = new Statuses();
    statuses.add(await f.app.request("GET", url, { token: f.token })); // first contact: the pin
    const ms: number[] = [];
    const started = process.hrtime.bigint();
    for (let wave = 0; wave < 10; wave++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => f.app.request("GET", url, { token: f.token })),
      );
      for (const a of answers) {
        statuses.add(a);
        ms.push(a.ms);
      }
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const s = summary(ms);
    const name = "api-aoscx-burst-200";
    o.log(
      `  ${name}: ${statuses.errors} errors, ${face.openSessions()} sessions left open, ${face.sessionsOpened()} opened, p50 ${s.median.toFixed(1)} ms`,
    );
    return scenarioRow(name, {
      ports: 48,
      latency_ms: o.latencyMs,
      errors: statuses.errors,
      statuses: statuses.counts,
      rps: ms.length / seconds,
      p50_ms: s.median,
      p99_ms: s.p99,
      sessions_left: face.openSessions(),
    });
  } finally {
    await face.stop();
    await lab.stop();
    await f.app.close();
  }
}

export async function apiDriverScenarios(o: ScenarioOptions): Promise<ScenarioResult[]> {
  const rows: ScenarioResult[] = [];
  for (const subject of SUBJECTS) {
    const f = await fixture();
    const lab = await startLabSwitch({ profile: subject.profile, ports: 48, latencyMs: o.latencyMs, seed: 1 });
    const face = await subject.start(lab, o.latencyMs);
    try {
      const apiId = await addApiDevice(f, subject, face);
      const snmpId = await f.app.addDevice(`bench-${subject.name}-snmp-48`, [f.group], lab);
      const api = await measure(f, `/api/switches/${f.group}/${apiId}/`, o.runs, () => face.requests());
      const snmp = await measure(f, `/api/switches/${f.group}/${snmpId}/`, o.runs, () => lab.counters.requests);
      const name = `api-${subject.name}-basic-48`;
      o.log(
        `  ${name}: ${api.median.toFixed(1)} ms median, ${api.requests} requests in ${api.roundTrips} round trips; over SNMP ${snmp.median.toFixed(1)} ms, ${snmp.requests} requests in ${snmp.roundTrips}`,
      );
      rows.push(
        scenarioRow(name, {
          ports: 48,
          latency_ms: o.latencyMs,
          requests: api.requests,
          round_trips: api.roundTrips,
          median_ms: api.median,
          p95_ms: api.p95,
          baseline_ms: snmp.median,
          baseline_requests: snmp.requests,
          ratio: api.median / snmp.median,
          errors: api.statuses.errors + snmp.statuses.errors,
          statuses: api.statuses.counts,
        }),
      );
    } finally {
      await face.stop();
      await lab.stop();
      await f.app.close();
    }
  }
  rows.push(await aoscxBurst(o));
  return rows;
}
