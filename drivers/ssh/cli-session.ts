/**
 * An interactive command line over one SSH shell channel, as a person at a terminal
 * uses it: wait for the prompt, become privileged when the login lands in user mode,
 * turn paging off, then run one command at a time and hand back what it printed without
 * the echoed command and the prompt. A pager that still appears is answered with a
 * space. Every wait has a deadline; a session that timed out or dropped is closed and
 * every later command fails the same clear way.
 */
import type { ClientChannel } from "ssh2";
import { DeviceRefused, DeviceUnreachable } from "../../model/failures";
import type { CliDialect } from "./cli-dialect";
import { openSshConnection, type SshConnection } from "./connection";
import type { SshTarget } from "./target";
import { lastTerminalLine, terminalLines } from "./terminal-text";

export interface CliSessionOptions {
  /** the device's inventory name, for messages */
  name?: string;
}

export interface RunOptions {
  /** a configuration command: any refusal line of the dialect fails it, not only syntax errors */
  write?: boolean;
  /** instead of the target's command timeout (a save may take longer) */
  timeoutMs?: number;
}

interface Prompt {
  /** "(config-if)" or "" */
  mode: string;
  privileged: boolean;
}

/** the shell asks for the enable secret */
const PASSWORD = "password" as const;

// bounds: output of one command, pages of one command, nudges while waiting for a first prompt
const MAX_OUTPUT_CHARS = 32 * 1024 * 1024;
const MAX_PAGES = 100_000;
const NUDGE_AFTER_MS = 2000;
// after a nudged first prompt, stray prompts the nudges caused are let through this long
const SETTLE_MS = 200;

class TimedOut extends DeviceUnreachable {}

export class CliSession {
  /** the name in the device's prompt */
  hostname = "";
  /** the prompt's privilege sign was "#" */
  privileged = false;
  /** the prompt's mode suffix ("" in exec mode) */
  mode = "";
  private buffer = "";
  private waiter: (() => void) | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private closedBecause: string | null = null;
  private promptPattern: RegExp;
  private pagesAnswered = 0;
  private moreAnsweredAt = -1;

  private constructor(
    private readonly connection: SshConnection,
    private readonly stream: ClientChannel,
    private readonly dialect: CliDialect,
    private readonly target: SshTarget,
  ) {
    this.promptPattern = dialect.promptPattern;
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => this.receive(chunk));
    // output on stderr is rare on a shell channel but belongs to the same screen
    stream.stderr.on("data", (chunk: Buffer) => this.receive(chunk.toString("utf8")));
    stream.on("close", () => this.lost("the SSH channel closed"));
    connection.onClose(() => this.lost("the SSH connection closed"));
  }

  /** Connects, opens a shell, finds the prompt, enables and turns paging off. */
  static async open(target: SshTarget, dialect: CliDialect, options: CliSessionOptions = {}): Promise<CliSession> {
    const connection = await openSshConnection(target, options);
    try {
      const stream = await new Promise<ClientChannel>((resolve, reject) => {
        // a wide terminal keeps devices from wrapping long lines (and echoes) themselves
        connection.client.shell({ term: "vt100", cols: 511, rows: 24 }, (err, channel) =>
          err ? reject(err) : resolve(channel),
        );
      }).catch((e: Error) => {
        throw new DeviceUnreachable(`${connection.where} refused an interactive SSH shell: ${e.message}`);
      });
      const session = new CliSession(connection, stream, dialect, target);
      await session.start();
      return session;
    } catch (e) {
      connection.close();
      throw e;
    }
  }

  /** where the session goes, for messages */
  get where(): string {
    return this.connection.where;
  }

  /** fingerprint of the host key the device presented */
  get hostKey(): string {
    return this.connection.hostKey;
  }

  get closed(): boolean {
    return this.closedBecause !== null;
  }

  /** Runs one command and returns its output (no echo, no prompt). */
  run(command: string, options: RunOptions = {}): Promise<string> {
    return this.exclusive(() => this.send(command, options));
  }

  /**
   * Runs lines in configuration mode and returns to privileged mode. A refused line
   * stops the rest; the session still leaves configuration mode before the error is thrown.
   */
  configure(lines: readonly string[], options: RunOptions = {}): Promise<void> {
    return this.exclusive(async () => {
      await this.send(this.dialect.configure, options);
      if (!this.mode) throw new DeviceRefused(`${this.where} did not enter configuration mode`);
      try {
        for (const line of lines) await this.send(line, { ...options, write: true });
      } catch (e) {
        if (!this.closed) await this.send(this.dialect.endConfig, options).catch(() => undefined);
        throw e;
      }
      await this.send(this.dialect.endConfig, options);
    });
  }

  close(): void {
    this.lost("the session was closed");
    this.connection.close();
  }

  private async start(): Promise<void> {
    const timeout = this.target.connect_timeout_ms;
    let nudged = false;
    // some devices print their prompt only after a key press
    const nudge = setTimeout(
      () => {
        if (this.buffer.length === 0 && !this.closed) {
          nudged = true;
          this.stream.write("\n");
        }
      },
      Math.min(NUDGE_AFTER_MS, timeout / 2),
    );
    let first: { name: string; prompt: Prompt };
    try {
      first = await this.waitFor(() => this.anyPromptAtEnd(), timeout, "with a first prompt after the login");
    } finally {
      clearTimeout(nudge);
    }
    if (nudged) await new Promise((r) => setTimeout(r, SETTLE_MS));
    this.hostname = first.name;
    this.promptPattern = exactPrompt(first.name);
    this.setPrompt(first.prompt);
    if (!this.privileged) await this.enable();
    for (const command of this.dialect.setupCommands) {
      // a device without the command keeps paging: the pager is answered anyway
      await this.send(command, {}).catch((e) => {
        if (!(e instanceof DeviceRefused)) throw e;
      });
    }
  }

  private async enable(): Promise<void> {
    const timeout = this.target.connect_timeout_ms;
    const answer = () => {
      const last = lastTerminalLine(this.buffer);
      if (this.dialect.enable.passwordPrompt.test(last)) return PASSWORD;
      return this.promptAtEnd();
    };
    this.buffer = "";
    this.stream.write(`${this.dialect.enable.command}\n`);
    let got = await this.waitFor(answer, timeout, `to "${this.dialect.enable.command}"`);
    if (got === PASSWORD) {
      const secret = this.target.enable_secret;
      if (secret === undefined || secret === "") {
        this.close();
        throw new DeviceUnreachable(`${this.where} asks for an enable secret and none is configured`);
      }
      this.buffer = "";
      this.stream.write(`${secret}\n`);
      got = await this.waitFor(answer, timeout, "to the enable secret");
    }
    if (got === PASSWORD || !got.privileged) {
      this.close();
      throw new DeviceUnreachable(`${this.where} refused the enable secret (still in user mode)`);
    }
    this.setPrompt(got);
  }

  private async send(command: string, options: RunOptions): Promise<string> {
    if (this.closedBecause)
      throw new DeviceUnreachable(`${this.where}: ${this.closedBecause}; "${command}" was not sent`);
    const timeout = options.timeoutMs ?? this.target.command_timeout_ms;
    this.buffer = "";
    this.pagesAnswered = 0;
    this.moreAnsweredAt = -1;
    this.stream.write(`${command}\n`);
    let prompt: Prompt;
    try {
      prompt = await this.waitFor(() => this.promptOrPager(), timeout, `to "${command}"`);
    } catch (e) {
      // what the device does with a command it did not finish is unknown: never reuse the session
      if (e instanceof TimedOut) this.close();
      throw e;
    }
    this.setPrompt(prompt);
    const output = this.outputOf(command);
    for (const line of output.split("\n")) {
      if (this.dialect.syntaxError.test(line) || (options.write && this.dialect.refusal(line))) {
        throw new DeviceRefused(`${this.where} refused "${command}": ${line.trim()}`);
      }
    }
    return output;
  }

  /** The screen between the echoed command and the prompt. */
  private outputOf(command: string): string {
    const lines = terminalLines(this.buffer);
    lines.pop(); // the prompt
    if (lines.length > 0 && lines[0].trim().endsWith(command.trim())) lines.shift();
    return lines.join("\n");
  }

  private promptOrPager(): Prompt | null {
    const last = lastTerminalLine(this.buffer);
    if (this.dialect.morePattern.test(last)) {
      if (this.buffer.length > this.moreAnsweredAt) {
        if (++this.pagesAnswered > MAX_PAGES)
          throw new DeviceRefused(`${this.where} printed more than ${MAX_PAGES} pages`);
        this.moreAnsweredAt = this.buffer.length;
        this.stream.write(" ");
      }
      return null;
    }
    return this.promptAtEnd();
  }

  private promptAtEnd(): Prompt | null {
    const m = this.promptPattern.exec(lastTerminalLine(this.buffer));
    return m ? { mode: m[m.length - 2] ?? "", privileged: m[m.length - 1] === "#" } : null;
  }

  private anyPromptAtEnd(): { name: string; prompt: Prompt } | null {
    const m = this.dialect.promptPattern.exec(lastTerminalLine(this.buffer));
    return m ? { name: m[1], prompt: { mode: m[2] ?? "", privileged: m[3] === "#" } } : null;
  }

  private setPrompt(p: Prompt): void {
    this.mode = p.mode;
    this.privileged = p.privileged;
  }

  private receive(chunk: string): void {
    this.buffer += chunk;
    if (this.buffer.length > MAX_OUTPUT_CHARS) {
      this.lost(`the output exceeded ${MAX_OUTPUT_CHARS} characters`);
      this.connection.close();
    }
    this.waiter?.();
  }

  private lost(reason: string): void {
    if (this.closedBecause) return;
    this.closedBecause = reason;
    this.waiter?.();
  }

  /** Resolves with the first non-null result of `match`, checked whenever output arrives. */
  private waitFor<T>(match: () => T | null, timeoutMs: number, doing: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.waiter = null;
      };
      const timer = setTimeout(() => {
        done();
        reject(new TimedOut(`No answer from ${this.where} ${doing} within ${timeoutMs} ms`));
      }, timeoutMs);
      const check = () => {
        if (this.closedBecause) {
          done();
          reject(new DeviceUnreachable(`${this.where}: ${this.closedBecause} while waiting for an answer ${doing}`));
          return;
        }
        let result: T | null;
        try {
          result = match();
        } catch (e) {
          done();
          reject(e instanceof Error ? e : new Error(String(e)));
          return;
        }
        if (result !== null) {
          done();
          resolve(result);
        }
      };
      this.waiter = check;
      check();
    });
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** The prompt of this device in any mode: its name, an optional mode suffix, > or #. */
function exactPrompt(hostname: string): RegExp {
  const name = hostname.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  return new RegExp(`^${name}(\\([\\w.-]*\\))?([>#])$`);
}
