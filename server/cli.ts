/**
 * The command line: `switchdesk serve | migrate | createsuperuser | changepassword |
 * inventory import FILE | lab`. Configuration comes from the environment (README).
 */
import readline from "node:readline";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { loadConfig, type Config } from "./config";
import { buildServices, ensureFirstSuperuser } from "./services";
import { createApp } from "./app";
import { openStore } from "../db/connect";
import { migrateToLatest } from "../db/migrations";
import { makeRepos } from "../db/repos";
import { hashPassword } from "./passwords";
import { LoginGuard } from "./login";
import { describeDirectory } from "../app/directory/config";

const USAGE = `usage: switchdesk <command>
  serve                         run the service (PORT, HOST, DATABASE_URL, ...)
  migrate                       apply database migrations and exit
  createsuperuser [--username NAME] [--email ADDR] [--password PW]
  changepassword USERNAME [--password PW] [--revoke-tokens]
                                a new password ends the user's web sessions;
                                --revoke-tokens also revokes its API tokens
  unlock USERNAME               forget the failed logins that locked an account
  inventory import FILE.yaml    load groups, devices and profiles from YAML
  lab                           start simulated switches on 127.0.0.1 for manual use`;

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  if (i >= 0) return args[i + 1];
  const eq = args.find((a) => a.startsWith(`--${name}=`));
  return eq?.slice(name.length + 3);
}

async function ask(question: string, hidden = false): Promise<string> {
  if (!process.stdin.isTTY) throw new Error(`${question.trim()} needed: pass it as an option`);
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  if (hidden) (rl as any)._writeToOutput = () => {};
  const answer = await new Promise<string>((r) => rl.question(question, r));
  rl.close();
  if (hidden) process.stdout.write("\n");
  return answer;
}

export interface RunningService {
  url: string;
  services: Awaited<ReturnType<typeof buildServices>>["services"];
  stop(): Promise<void>;
}

/** Starts the whole service from a configuration: store, first superuser, demo lab, HTTP. */
export async function startService(config: Config, say: (line: string) => void = console.log): Promise<RunningService> {
  const { services, contract } = await buildServices(config);
  if (config.directory) say(describeDirectory(config.directory));
  const first = await ensureFirstSuperuser(services);
  if (first) {
    say(`Created superuser '${first.username}'.`);
    if (first.generatedPassword) say(`Its generated password (shown only now): ${first.generatedPassword}`);
  }
  const { startDemoIfWanted } = await import("./demo");
  const demo = await startDemoIfWanted(services, say);
  const app = createApp(services, contract);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.port, config.host, () => resolve(s));
    s.once("error", reject);
  });
  const a = server.address() as AddressInfo;
  const host = a.family === "IPv6" ? `[${a.address}]` : a.address;
  const url = `http://${host}:${a.port}`;
  say(`switchdesk ${services.version} listening on ${url}/api/ (database: ${services.store.describe})`);
  return {
    url,
    services,
    async stop() {
      await new Promise<void>((r) => server.close(() => r()));
      await demo?.stop();
      await services.store.close();
    },
  };
}

export async function serve(): Promise<void> {
  const running = await startService(loadConfig());
  const stop = async () => {
    await running.stop();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

async function withRepos<T>(fn: (repos: ReturnType<typeof makeRepos>) => Promise<T>): Promise<T> {
  const store = await openStore(loadConfig().databaseUrl);
  try {
    await migrateToLatest(store);
    return await fn(makeRepos(store));
  } finally {
    await store.close();
  }
}

export async function main(argv: string[]): Promise<number> {
  const [cmd, ...args] = argv;
  switch (cmd) {
    case "serve":
      await serve();
      return -1; // keeps running
    case "migrate": {
      const store = await openStore(loadConfig().databaseUrl);
      const applied = await migrateToLatest(store);
      await store.close();
      console.log(applied.length ? `Applied: ${applied.join(", ")}` : "No migrations to apply.");
      return 0;
    }
    case "createsuperuser": {
      const username = option(args, "username") ?? (await ask("Username: "));
      const password = option(args, "password") ?? process.env.SWITCHDESK_ADMIN_PASSWORD ?? (await ask("Password: ", true));
      if (!username || !password) throw new Error("username and password must not be empty");
      await withRepos(async (r) => {
        await r.users.create(
          { username, password: await hashPassword(password), email: option(args, "email") ?? "", is_staff: true, is_superuser: true },
          { vlan_edit: true, allow_poe_toggle: true },
        );
      });
      console.log(`Superuser '${username}' created.`);
      return 0;
    }
    case "changepassword": {
      const username = args.find((a) => !a.startsWith("--") && a !== option(args, "password"));
      if (!username) throw new Error("changepassword needs a USERNAME");
      const password = option(args, "password") ?? (await ask(`New password for ${username}: `, true));
      if (!password) throw new Error("the password must not be empty");
      const revoke = args.includes("--revoke-tokens");
      const done = await withRepos(async (r) => {
        const user = await r.users.findByUsername(username);
        if (!user) throw new Error(`no user named '${username}'`);
        await r.users.update(user.id, { password: await hashPassword(password) }, {});
        const sessions = await r.sessions.removeAllOfUser(user.id);
        const tokens = revoke ? await r.tokens.revokeAllOfUser(user.id) : 0;
        return { sessions, tokens };
      });
      console.log(
        `Password changed for '${username}'; ${done.sessions} web session(s) ended` + (revoke ? `, ${done.tokens} API token(s) revoked.` : "."),
      );
      return 0;
    }
    case "unlock": {
      const username = args.find((a) => !a.startsWith("--"));
      if (!username) throw new Error("unlock needs a USERNAME");
      const config = loadConfig();
      const wasLocked = await withRepos(async (r) => {
        if (!(await r.users.findByUsername(username))) throw new Error(`no user named '${username}'`);
        const guard = new LoginGuard(r.loginFailures, { maxFailures: config.loginMaxFailures, windowMs: config.loginWindowMs });
        return guard.unlock(username);
      });
      console.log(wasLocked ? `Unlocked '${username}'.` : `'${username}' had no failed logins counted; nothing to unlock.`);
      return 0;
    }
    case "inventory": {
      if (args[0] !== "import" || !args[1]) throw new Error("usage: switchdesk inventory import FILE.yaml");
      const { importInventoryFile } = await import("./inventory-import");
      const report = await importInventoryFile(args[1]);
      console.log(report);
      return 0;
    }
    case "lab": {
      const { runLabCli } = await import("../lab/cli");
      await runLabCli(args);
      return -1; // runs until Ctrl-C
    }
    default:
      console.log(USAGE);
      return cmd === undefined || cmd === "help" || cmd === "--help" ? 0 : 2;
  }
}
