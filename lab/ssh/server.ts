/**
 * The SSH face of a lab switch: an ssh2 server on 127.0.0.1 speaking the Cisco IOS
 * command line over the same VirtualSwitch its SNMP face serves, so a change made on
 * one face is seen on the other at once. Each face has an ed25519 host key of its own
 * (its fingerprint is what a driver pins), takes a password or an authorised public
 * key, and offers interactive shells only (IOS-style exec requests are refused).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { type AuthContext, type Connection, type ParsedKey, Server, type ServerChannel, utils } from "ssh2";
import type { SshTarget } from "../../model/targets";
import type { VirtualSwitch } from "../model";
import { SshCounters, SshFaults } from "./faults";
import { generateEd25519 } from "./keys";
import { IosShell } from "./ios-shell";
import { listenOnLoopback } from "../listen";

declare module "ssh2" {
  interface Connection {
    /** ssh2's server connection has it (lib/server.js) as its client has; @types/ssh2 declares it on Client only */
    setNoDelay(noDelay?: boolean): this;
  }
}

export interface LabSshFaceOptions {
  /** TCP port on 127.0.0.1; 0 or absent picks a free one */
  port?: number;
  /** default "admin" */
  username?: string;
  /** default "lab-ssh-password"; "" turns password logins off */
  password?: string;
  /** default "lab-enable-secret" */
  enableSecret?: string;
  /** OpenSSH public key lines ("ssh-ed25519 AAAA... comment") that may log in as the user */
  authorizedKeys?: string[];
  /** land in privileged mode ("#") at login instead of user mode (">") */
  privileged?: boolean;
  /** delay before each command's answer */
  latencyMs?: number;
  /** text before the first prompt */
  banner?: string;
  /**
   * SSH subsystems served besides the shell, by name (the NETCONF face serves "netconf",
   * lab/netconf/): each accepted subsystem channel is handed over with a way to end the
   * whole connection
   */
  subsystems?: Record<string, (channel: ServerChannel, endConnection: () => void) => void>;
  /** asked at each login attempt: false refuses it whatever the credentials (a fault) */
  loginAllowed?: () => boolean;
}

export interface LabSshFaults {
  latencyMs: number;
  /** commands get no answer at all */
  hang: boolean;
  /** configuration commands are answered as usual but change nothing */
  lieOnWrite: boolean;
  /** answer n more command lines, then drop the connection on the next one */
  dropAfter(n: number): void;
  /** answer matching command lines with "% message" and change nothing */
  refuseCommands(match: RegExp | string, message?: string): void;
  reset(): void;
}

export interface LabSshFace {
  host: "127.0.0.1";
  port: number;
  username: string;
  password: string;
  enableSecret: string;
  /** "SHA256:..." of this face's host key, as a driver reports it */
  hostKeyFingerprint: string;
  faults: LabSshFaults;
  counters: SshCounters;
  /** a target for the SSH drivers: password login, enable secret, short timeouts; `pin` pins this face's key */
  sshTarget(opts?: { pin?: boolean }): SshTarget;
  stop(): Promise<void>;
}

function sameSecret(a: string, b: string): boolean {
  const ha = createHash("sha256").update(a).digest();
  const hb = createHash("sha256").update(b).digest();
  return timingSafeEqual(ha, hb);
}

function parsedKey(text: string): ParsedKey {
  const parsed = utils.parseKey(text);
  if (parsed instanceof Error) throw new Error(`lab SSH face: cannot read an authorised key: ${parsed.message}`);
  return parsed;
}

/** Starts the IOS command line of `lab` (a started lab switch, or just its model) on 127.0.0.1. */
export async function startLabSshFace(
  lab: { model: VirtualSwitch } | VirtualSwitch,
  options: LabSshFaceOptions = {},
): Promise<LabSshFace> {
  const model = "model" in lab ? lab.model : lab;
  const username = options.username ?? "admin";
  const password = options.password ?? "lab-ssh-password";
  const enableSecret = options.enableSecret ?? "lab-enable-secret";
  const authorized = (options.authorizedKeys ?? []).map(parsedKey);
  const hostKey = generateEd25519();
  const hostKeyFingerprint = `SHA256:${createHash("sha256").update(parsedKey(hostKey.public).getPublicSSH()).digest("base64").replace(/=+$/, "")}`;
  const faults = new SshFaults(options.latencyMs ?? 0);
  const counters = new SshCounters();
  const clients = new Set<Connection>();

  const authenticate = (ctx: AuthContext) => {
    const methods: Array<"password" | "publickey"> = password ? ["password", "publickey"] : ["publickey"];
    if (ctx.username !== username || options.loginAllowed?.() === false) return ctx.reject(methods);
    if (ctx.method === "password" && password && sameSecret(ctx.password, password)) return ctx.accept();
    if (ctx.method === "publickey") {
      const key = authorized.find((k) => k.type === ctx.key.algo && k.getPublicSSH().equals(ctx.key.data));
      if (key && !ctx.signature) return ctx.accept(); // the client asks whether this key would do
      if (key && ctx.signature && ctx.blob && key.verify(ctx.blob, ctx.signature, ctx.hashAlgo) === true)
        return ctx.accept();
    }
    ctx.reject(methods);
  };

  const server = new Server({ hostKeys: [hostKey.private] }, (client) => {
    clients.add(client);
    // echoes and prompts are small packets: without this each command waits for a delayed ACK
    client.setNoDelay(true);
    client.on("close", () => clients.delete(client));
    client.on("error", () => clients.delete(client));
    client.on("authentication", authenticate);
    client.on("ready", () => {
      counters.logins++;
      client.on("session", (accept) => {
        const session = accept();
        session.on("pty", (ok) => ok?.());
        session.on("window-change", (ok) => ok?.());
        session.on("env", (ok) => ok?.());
        session.on("exec", (_ok, reject) => reject?.());
        session.on("subsystem", (ok, reject, info) => {
          const serve = Object.hasOwn(options.subsystems ?? {}, info.name) ? options.subsystems![info.name] : undefined;
          if (!serve) return reject?.();
          serve(ok(), () => client.end());
        });
        session.on("shell", (ok) => {
          const stream = ok();
          const shell = new IosShell({
            model,
            hostname: model.system.sysName,
            enableSecret,
            privileged: options.privileged ?? false,
            faults,
            counters,
            banner: options.banner ?? "\r\nswitchdesk lab switch: authorised use only\r\n\r\n",
            write: (text) => {
              if (stream.writable) stream.write(text);
            },
            // the device ends the whole connection, as a dropped vty session does
            close: () => client.end(),
          });
          stream.on("data", (data: Buffer) => shell.input(data.toString("utf8")));
          stream.on("close", () => shell.end());
        });
      });
    });
  });
  server.on("error", () => undefined);

  const port = await listenOnLoopback(server, options.port);

  return {
    host: "127.0.0.1",
    port,
    username,
    password,
    enableSecret,
    hostKeyFingerprint,
    faults,
    counters,
    sshTarget: (o = {}) => ({
      host: "127.0.0.1",
      port,
      username,
      password,
      enable_secret: enableSecret,
      ...(o.pin ? { host_key_fingerprint: hostKeyFingerprint } : {}),
      connect_timeout_ms: 3000,
      command_timeout_ms: 3000,
    }),
    stop: () =>
      new Promise<void>((resolve) => {
        for (const c of clients) c.end();
        server.close(() => resolve());
      }),
  };
}
