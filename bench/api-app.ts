/**
 * The real service started in this process for the API scenarios: a fresh SQLite
 * database in a temporary folder, the express app on a free port of 127.0.0.1, and lab
 * switches in its inventory. Every driver the device service opens is remembered, so a
 * scenario reads the round trips of the call it made from the driver's session counters
 * (the same counters the device tests read).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { loadConfig } from "../app/config";
import { DeviceService } from "../app/devices";
import { hashPassword } from "../app/passwords";
import type { Services } from "../app/services";
import { buildServices, closeServices } from "../app/startup";
import { snmpProfileRow, switchRow } from "../db/inventory";
import { openDriver } from "../drivers/registry";
import type { Driver } from "../drivers/contract";
import type { LabSwitch } from "../lab";
import { loadContract } from "../server/contract";
import { createApp } from "../server/app";
import type { components } from "../generated/api";
import { httpRequest, type Answer, type RequestOptions } from "./http-client";

export { httpRequest, type Answer, type RequestOptions };

/** What a driver's session counted (SnmpDriver has counters; SSH drivers do not). */
interface CountingDriver {
  counters?: { requests: number; roundTrips: number };
}

export class BenchApp {
  /** every driver opened since the last takeDrivers() */
  private opened: Driver[] = [];

  private constructor(
    readonly url: string,
    readonly services: Services,
    private readonly server: Server,
    private readonly dir: string,
  ) {}

  /** On a fresh SQLite file, or on `databaseUrl` (an empty database the bench made) with this secret key. */
  static async start(options: { databaseUrl?: string; secretKey?: string } = {}): Promise<BenchApp> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchdesk-bench-"));
    const config = {
      // the service's own request log would drown the bench's table (LOG_LEVEL=info shows it)
      ...loadConfig({ LOG_LEVEL: process.env.LOG_LEVEL ?? "warn", SWITCHDESK_SECRET_KEY: options.secretKey }),
      databaseUrl: options.databaseUrl ?? `sqlite:${path.join(dir, "bench.db")}`,
      port: 0,
      secretKeyFile: path.join(dir, "secret.key"),
      demo: "off" as const,
    };
    const services = await buildServices(config);
    let app: BenchApp | null = null;
    // the production device service, with the registry's opener wrapped to remember drivers
    services.devices = new DeviceService({
      ...services,
      open: async (spec) => {
        const opened = await openDriver(spec);
        app?.opened.push(opened.driver);
        return opened;
      },
    });
    const handler = createApp(services, await loadContract());
    const server: Server = await new Promise((resolve) => {
      const s = handler.listen(0, "127.0.0.1", () => resolve(s));
    });
    app = new BenchApp(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, services, server, dir);
    return app;
  }

  /** Drivers opened since the last call: how many, and the round trips and requests they counted. */
  takeDrivers(): { learns: number; roundTrips: number; requests: number } {
    const drivers = this.opened;
    this.opened = [];
    let roundTrips = 0;
    let requests = 0;
    for (const d of drivers as CountingDriver[]) {
      roundTrips += d.counters?.roundTrips ?? 0;
      requests += d.counters?.requests ?? 0;
    }
    return { learns: drivers.length, roundTrips, requests };
  }

  request(method: string, p: string, opts: RequestOptions = {}): Promise<Answer> {
    return httpRequest(this.url, method, p, opts);
  }

  async createUser(
    username: string,
    password: string,
    opts: { superuser?: boolean; groups?: number[] } = {},
  ): Promise<string> {
    await this.services.repos.users.create(
      {
        username,
        password: await hashPassword(password),
        is_superuser: opts.superuser ?? false,
        is_staff: false,
        is_active: true,
      },
      { vlan_edit: true, allow_poe_toggle: true },
      opts.groups,
    );
    const r = await this.request("POST", "/api/users/token/", { json: { username, password } });
    if (r.status !== 200) throw new Error(`login of ${username} failed: ${r.status} ${JSON.stringify(r.body)}`);
    // a 200 of POST /api/users/token/ is the spec's TokenCreated
    return (r.body as components["schemas"]["TokenCreated"]).token;
  }

  async addGroup(name: string): Promise<number> {
    const row = await this.services.repos.inventory.create("switch_groups", {
      name,
      description: "",
      display_name: "",
      comments: "",
      read_only: 0,
      allow_poe_toggle: 1,
      edit_if_descr: 1,
      allow_all_vlans: 1,
    });
    return row.id;
  }

  private profiles = new Map<string, number>();

  /** an SNMP profile with the lab's write community (one per community) */
  private async profile(community: string): Promise<number> {
    const known = this.profiles.get(community);
    if (known) return known;
    const row = await this.services.repos.inventory.create(
      "snmp_profiles",
      snmpProfileRow({
        name: `bench-${community}`,
        version: "2c",
        community_enc: this.services.secrets.encrypt(community),
      }),
    );
    this.profiles.set(community, row.id);
    return row.id;
  }

  /** A device in these groups: a lab switch, or an address where nothing answers (the menu needs no answer). */
  async addDevice(name: string, groups: number[], lab?: LabSwitch): Promise<number> {
    const row = await this.services.repos.inventory.create(
      "switches",
      switchRow({
        name,
        primary_ipv4: "127.0.0.1",
        snmp_port: lab ? lab.port : 9,
        driver: "auto",
        snmp_profile_id: await this.profile(lab ? lab.options.writeCommunity : "private"),
        allow_poe_toggle: 1,
        edit_if_descr: 1,
      }),
      [{ relation: "groups", ids: groups }],
    );
    return row.id;
  }

  /** A device at 127.0.0.1:port answering SNMP v2c with this community (an agent the bench did not write). */
  async addSnmpDevice(name: string, groups: number[], port: number, community: string): Promise<number> {
    const row = await this.services.repos.inventory.create(
      "switches",
      switchRow({
        name,
        primary_ipv4: "127.0.0.1",
        snmp_port: port,
        driver: "auto",
        snmp_profile_id: await this.profile(community),
        allow_poe_toggle: 1,
        edit_if_descr: 1,
      }),
      [{ relation: "groups", ids: groups }],
    );
    return row.id;
  }

  async close(): Promise<void> {
    await new Promise<void>((r) => this.server.close(() => r()));
    await closeServices(this.services);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
