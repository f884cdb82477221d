/**
 * The command line: `switchdesk serve | migrate | createsuperuser | changepassword |
 * unlock | inventory import FILE | drivers | lab`. Configuration comes from the environment
 * (README). Every command answers `--help` with its usage and exit 0 without doing
 * anything; an unknown option, a missing value or a missing argument is one line on
 * stderr and exit 2 (util.parseArgs, strict).
 */
import readline from "node:readline";
import { Writable } from "node:stream";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { loadConfig } from "../app/config";
import { loginGuardOf, migrateOnly, withCore } from "../app/startup";
import { checkPasswordPolicy, hashPassword } from "../app/passwords";
import { changePassword } from "../app/accounts";
import { startService } from "./start-service";

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

/**
 * The terminal as readline's output, with what readline writes held back while `muted`
 * (the echo of a password being typed, once its question is shown).
 */
class TerminalOutput extends Writable {
  muted = false;

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    if (!this.muted) process.stdout.write(chunk);
    done();
  }
}

async function ask(question: string, hidden = false): Promise<string> {
  if (!process.stdin.isTTY) throw new UsageError(`${question.replace(/[:\s]+$/, "")} needed: pass it as an option`);
  const output = new TerminalOutput();
  const rl = readline.createInterface({ input: process.stdin, output, terminal: true });
  // question() shows the question at once; from then on a hidden answer is not echoed
  const answered = new Promise<string>((r) => rl.question(question, r));
  output.muted = hidden;
  const answer = await answered;
  rl.close();
  if (hidden) process.stdout.write("\n");
  return answer;
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
      const done = await withCore(config, ({ repos }) => changePassword(repos, username, password, revoke));
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
