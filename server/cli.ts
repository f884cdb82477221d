/**
 * The command line: `switchdesk serve | migrate | createsuperuser | changepassword |
 * unlock | inventory import FILE | drivers | lab`. Configuration comes from the environment
 * (README). Every command answers `--help` with its usage and exit 0 without doing
 * anything; an unknown option, a missing value or a missing argument is one line on
 * stderr and exit 2 (util.parseArgs, strict).
 */
import readline from "node:readline";
import { parseArgs, type ParseArgsConfig } from "node:util";
import type { AddressInfo } from "node:net";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { DestinationStream } from "pino";
import { loadConfig, type Config } from "../app/config";
import { buildServices, ensureFirstSuperuser, loginGuardOf, migrateOnly, withCore } from "../app/startup";
import type { Services } from "../app/services";
import { startInstancePresence, type InstancePresence } from "../app/instance-presence";
import { startAuditRetention, type AuditRetention } from "../app/audit-retention";
import { checkPasswordPolicy, hashPassword } from "../app/passwords";
import { createApp } from "./app";
import { loadContract } from "./contract";
import { describeDirectory, directoryWarnings } from "../app/directory/config";

/** A command line that cannot run: one line for the user, exit code 2. */
export class UsageError extends Error {
  readonly exitCode = 2;
}

type Options = NonNullable<ParseArgsConfig["options"]>;

interface Command {
  usage: string;
  summary: string;
  options: Options;
  /** names of the positional arguments, required ones first */
  positionals: { required: string[]; optional?: string[] };
  run(
    values: Record<string, string | boolean | undefined>,
    args: string[],
    out: (line: string) => void,
  ): Promise<number>;
}

async function ask(question: string, hidden = false): Promise<string> {
  if (!process.stdin.isTTY) throw new UsageError(`${question.replace(/[:\s]+$/, "")} needed: pass it as an option`);
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  if (hidden) (rl as unknown as { _writeToOutput: () => void })._writeToOutput = () => {};
  const answer = await new Promise<string>((r) => rl.question(question, r));
  rl.close();
  if (hidden) process.stdout.write("\n");
  return answer;
}

export interface RunningService {
  url: string;
  services: Services;
  stop(): Promise<void>;
  /**
   * Graceful stop: no new connections, requests and device writes in flight may finish
   * within the configured SHUTDOWN_TIMEOUT (then the rest are cut off), the database is
   * closed, and one log line says how it went. `clean` is false when something was cut off.
   */
  shutdown(reason: string): Promise<{ clean: boolean }>;
}

/**
 * Where start-up lines go: `say(line)` when given (tests, embedding), else the JSON log;
 * a generated first password never goes to the log but to stderr, in plain words.
 */
type Say = (line: string, secret?: boolean) => void;

function startupSay(services: Services): Say {
  return (line, secret) => {
    if (!secret) return services.log.info(line);
    services.log.warn(
      "a first superuser was created with a generated password; it is printed on stderr once and never logged",
    );
    const rule = "=".repeat(Math.min(line.length, 78));
    process.stderr.write(`\n${rule}\n${line}\n${rule}\n\n`);
  };
}

/** A listen() failure as one line that says what to change. */
function listenError(e: NodeJS.ErrnoException, config: Config): Error {
  switch (e.code) {
    case "EADDRINUSE":
      return new Error(
        `Port ${config.port} on ${config.host} is already in use (another switchdesk?): stop that program or set PORT to a free port`,
      );
    case "EADDRNOTAVAIL":
      return new Error(
        `HOST ${config.host} is not an address of this machine: set HOST to one of its addresses, 127.0.0.1, or 0.0.0.0 for all of them`,
      );
    case "EACCES":
      return new Error(
        `Listening on port ${config.port} needs privileges: use a port above 1023 (PORT), behind a reverse proxy for 80/443`,
      );
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new Error(`HOST ${config.host} is not a name or address this machine can resolve: set HOST to an address`);
  }
  return new Error(`Cannot listen on ${config.host}:${config.port}: ${e.message}`);
}

/** Answers while the service starts (the socket is open before anything else happens). */
function starting(_req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(503, { "Content-Type": "application/json", "Retry-After": "1", "Cache-Control": "no-store" });
  res.end(JSON.stringify({ reason: "switchdesk is starting; try again in a moment", code: "server_error" }));
}

/**
 * Starts the whole service from a configuration. The listening socket comes first: a port
 * in use or a foreign address is one clear line before anything has effects (no store
 * opened, no superuser created, no lab started). Then store, first superuser, demo lab,
 * and the application takes over the socket.
 */
export async function startService(
  config: Config,
  say?: (line: string) => void,
  options: { logDestination?: DestinationStream } = {},
): Promise<RunningService> {
  const server = http.createServer(starting);
  await new Promise<void>((resolve, reject) => {
    server.once("error", (e) => reject(listenError(e as NodeJS.ErrnoException, config)));
    server.listen(config.port, config.host, () => resolve());
  });
  let services: Services | null = null;
  let tell: Say = say ?? console.log;
  let demo: Awaited<ReturnType<typeof import("./demo").startDemoIfWanted>> = null;
  let presence: InstancePresence | null = null;
  let retention: AuditRetention | null = null;
  try {
    services = await buildServices(config, options);
    tell = say ?? startupSay(services);
    const contract = await loadContract();
    if (config.directory) {
      tell(describeDirectory(config.directory));
      for (const w of directoryWarnings(config.directory)) services.log.warn(w);
    }
    const first = await ensureFirstSuperuser(services);
    if (first) {
      tell(`Created superuser '${first.username}'.`);
      if (first.generatedPassword) tell(`Its generated password (shown only now): ${first.generatedPassword}`, true);
    }
    presence = startInstancePresence(services);
    retention = startAuditRetention(services);
    const { startDemoIfWanted } = await import("./demo");
    demo = await startDemoIfWanted(services, tell);
    const app = createApp(services, contract);
    server.removeListener("request", starting);
    server.on("request", app);
  } catch (e) {
    await demo?.stop();
    await presence?.stop();
    await retention?.stop();
    await services?.store.close();
    await new Promise<void>((r) => server.close(() => r()));
    throw e;
  }
  const a = server.address() as AddressInfo;
  const host = a.family === "IPv6" ? `[${a.address}]` : a.address;
  const url = `http://${host}:${a.port}`;
  tell(`switchdesk ${services.version} listening on ${url}/api/ (database: ${services.store.describe})`);
  const running: Services = services;

  // requests being answered, so that a stop can wait for them (and close each connection after its answer)
  let stopping = false;
  const inFlight = new Set<ServerResponse>();
  server.on("request", (_req: IncomingMessage, res: ServerResponse) => {
    inFlight.add(res);
    if (stopping && !res.headersSent) res.setHeader("Connection", "close");
    res.once("close", () => {
      inFlight.delete(res);
      if (stopping) server.closeIdleConnections();
    });
  });
  const closed = new Promise<void>((r) => server.once("close", () => r()));
  let stopped: Promise<{ clean: boolean }> | null = null;

  const shutdown = (reason: string) =>
    (stopped ??= (async () => {
      const started = Date.now();
      stopping = true;
      const log = running.log;
      log.info(
        { reason, requestsInFlight: inFlight.size, deviceWrites: running.devices.pendingWrites },
        "shutting down: no new connections; waiting for requests and device writes in flight",
      );
      server.close();
      server.closeIdleConnections();
      const timeout = config.shutdownTimeoutMs;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<false>((r) => (timer = setTimeout(() => r(false), timeout)));
      const connectionsDone = await Promise.race([closed.then(() => true as const), late]);
      const writesDone = await running.devices.settle(Math.max(0, timeout - (Date.now() - started)));
      clearTimeout(timer);
      const cut = inFlight.size;
      if (!connectionsDone) server.closeAllConnections();
      await demo?.stop();
      await presence?.stop();
      await retention?.stop();
      await running.store.close();
      const clean = connectionsDone && writesDone;
      const facts = {
        reason,
        durationMs: Date.now() - started,
        requestsCutOff: cut,
        deviceWritesLeft: running.devices.pendingWrites,
      };
      if (clean) log.info(facts, "shutdown complete: requests and device writes finished, database closed");
      else log.warn(facts, `shutdown after ${timeout / 1000} s: work still in flight was cut off; database closed`);
      return { clean };
    })());

  return {
    url,
    services: running,
    async stop() {
      await shutdown("stop");
    },
    shutdown,
  };
}

/** A new password that breaks the policy (PASSWORD_MIN_LENGTH) is a usage error: exit 2, the rule said. */
function policy(password: string, minLength: number): void {
  try {
    checkPasswordPolicy(password, minLength);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

const commands: Record<string, Command> = {
  serve: {
    usage: "switchdesk serve",
    summary: "run the service (PORT, HOST, DATABASE_URL, ... from the environment)",
    options: {},
    positionals: { required: [] },
    async run() {
      const running = await startService(loadConfig());
      running.services.telemetry.collectProcessMetrics();
      let signals = 0;
      const stop = (signal: NodeJS.Signals) => {
        // a second signal while waiting: stop at once
        if (++signals > 1) {
          running.services.log.warn({ signal }, "second signal during shutdown: exiting at once");
          process.exit(1);
        }
        running.shutdown(signal).then(
          ({ clean }) => process.exit(clean ? 0 : 1),
          (e) => {
            running.services.log.error({ err: e }, "shutdown failed");
            process.exit(1);
          },
        );
      };
      process.on("SIGINT", stop);
      process.on("SIGTERM", stop);
      return -1; // keeps running
    },
  },
  migrate: {
    usage: "switchdesk migrate",
    summary: "apply database migrations and exit",
    options: {},
    positionals: { required: [] },
    async run(_v, _a, out) {
      const applied = await migrateOnly(loadConfig());
      out(applied.length ? `Applied: ${applied.join(", ")}` : "No migrations to apply.");
      return 0;
    },
  },
  createsuperuser: {
    usage: "switchdesk createsuperuser [--username NAME] [--email ADDR] [--password PW]",
    summary: "create a superuser (asks for what is not given, on a terminal)",
    options: { username: { type: "string" }, email: { type: "string" }, password: { type: "string" } },
    positionals: { required: [] },
    async run(v, _a, out) {
      const username = (v.username as string | undefined) ?? (await ask("Username: "));
      const password =
        (v.password as string | undefined) ?? process.env.SWITCHDESK_ADMIN_PASSWORD ?? (await ask("Password: ", true));
      if (!username || !password) throw new UsageError("username and password must not be empty");
      const config = loadConfig();
      policy(password, config.passwordMinLength);
      await withCore(config, async ({ repos }) => {
        await repos.users.create(
          {
            username,
            password: await hashPassword(password),
            email: (v.email as string | undefined) ?? "",
            is_staff: true,
            is_superuser: true,
          },
          { vlan_edit: true, allow_poe_toggle: true },
        );
      });
      out(`Superuser '${username}' created.`);
      return 0;
    },
  },
  changepassword: {
    usage: "switchdesk changepassword USERNAME [--password PW] [--revoke-tokens]",
    summary: "set a user's password; ends its web sessions (--revoke-tokens: its API tokens too)",
    options: { password: { type: "string" }, "revoke-tokens": { type: "boolean" } },
    positionals: { required: ["USERNAME"] },
    async run(v, [username], out) {
      const password = (v.password as string | undefined) ?? (await ask(`New password for ${username}: `, true));
      if (!password) throw new UsageError("the password must not be empty");
      const revoke = v["revoke-tokens"] === true;
      const config = loadConfig();
      policy(password, config.passwordMinLength);
      const done = await withCore(config, async ({ repos }) => {
        const user = await repos.users.findByUsername(username);
        if (!user) throw new Error(`no user named '${username}'`);
        await repos.users.update(user.id, { password: await hashPassword(password) }, {});
        const sessions = await repos.sessions.removeAllOfUser(user.id);
        const tokens = revoke ? await repos.tokens.revokeAllOfUser(user.id) : 0;
        return { sessions, tokens };
      });
      out(
        `Password changed for '${username}'; ${done.sessions} web session(s) ended` +
          (revoke ? `, ${done.tokens} API token(s) revoked.` : "."),
      );
      return 0;
    },
  },
  unlock: {
    usage: "switchdesk unlock USERNAME",
    summary: "forget the failed logins that locked an account",
    options: {},
    positionals: { required: ["USERNAME"] },
    async run(_v, [username], out) {
      const wasLocked = await withCore(loadConfig(), async (core) => {
        if (!(await core.repos.users.findByUsername(username))) throw new Error(`no user named '${username}'`);
        return loginGuardOf(core).unlock(username);
      });
      out(wasLocked ? `Unlocked '${username}'.` : `'${username}' had no failed logins counted; nothing to unlock.`);
      return 0;
    },
  },
  inventory: {
    usage: "switchdesk inventory import FILE.yaml",
    summary: "load groups, devices and profiles from a YAML file (checked whole, applied in one transaction)",
    options: {},
    positionals: { required: ["import", "FILE.yaml"] },
    async run(_v, [verb, file], out) {
      if (verb !== "import") throw new UsageError(`unknown inventory command '${verb}' (only: import)`);
      const { importInventoryFile } = await import("../app/inventory-import");
      out(await importInventoryFile(loadConfig(), file));
      return 0;
    },
  },
  drivers: {
    usage: "switchdesk drivers",
    summary: 'list the drivers: transports, what "auto" picks each for, what each can change (Markdown)',
    options: {},
    positionals: { required: [] },
    async run(_v, _a, out) {
      const { driverTable } = await import("../app/driver-table");
      out(driverTable());
      return 0;
    },
  },
  lab: {
    usage: "",
    summary: "start simulated switches on 127.0.0.1 for manual use (see switchdesk lab --help)",
    options: {},
    positionals: { required: [] },
    async run() {
      throw new Error("lab is dispatched before option parsing");
    },
  },
};

function usage(): string {
  const width = Math.max(...Object.keys(commands).map((c) => c.length)) + 2;
  return [
    "usage: switchdesk <command> [options]   (switchdesk <command> --help for one command)",
    ...Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}${c.summary}`),
  ].join("\n");
}

function commandHelp(c: Command): string {
  return `usage: ${c.usage}\n${c.summary}`;
}

/** Runs one command line; the exit code, or -1 for a command that keeps running. */
export async function main(
  argv: string[],
  out: (line: string) => void = console.log,
  err: (line: string) => void = console.error,
): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    out(usage());
    return 0;
  }
  const command = commands[name];
  if (!command) {
    err(`switchdesk: unknown command '${name}' (switchdesk --help lists the commands)`);
    return 2;
  }
  try {
    if (name === "lab") return await runLab(rest, out);
    let parsed;
    try {
      parsed = parseArgs({
        args: rest,
        options: { ...command.options, help: { type: "boolean", short: "h" } },
        strict: true,
        allowPositionals: true,
      });
    } catch (e) {
      throw new UsageError((e as Error).message.split("\n")[0]);
    }
    if (parsed.values.help) {
      out(commandHelp(command));
      return 0;
    }
    const { required, optional = [] } = command.positionals;
    if (parsed.positionals.length < required.length)
      throw new UsageError(`missing ${required.slice(parsed.positionals.length).join(" ")} (usage: ${command.usage})`);
    if (parsed.positionals.length > required.length + optional.length) {
      throw new UsageError(
        `unexpected argument '${parsed.positionals[required.length + optional.length]}' (usage: ${command.usage})`,
      );
    }
    return await command.run(parsed.values, parsed.positionals, out);
  } catch (e) {
    if ((e as { exitCode?: number }).exitCode === 2) {
      err(`switchdesk ${name}: ${(e as Error).message}`);
      return 2;
    }
    throw e;
  }
}

async function runLab(args: string[], out: (line: string) => void): Promise<number> {
  const { labUsage, parseLabArgs, runLabCli } = await import("../lab/cli");
  if (parseLabArgs(args) === "help") {
    out(labUsage);
    return 0;
  }
  await runLabCli(args, { out });
  return -1; // runs until Ctrl-C
}
