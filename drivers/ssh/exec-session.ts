/**
 * Commands over SSH exec channels, one channel per command, for devices with a real
 * shell (Linux hosts): no prompts to guess, output and errors come apart (stdout,
 * stderr) and every command ends with an exit status. Channels of one connection may
 * run side by side.
 */
import type { ClientChannel } from "ssh2";
import { DeviceUnreachable } from "../../model/failures";
import { openSshConnection, type SshConnection } from "./connection";
import type { SshTarget } from "./target";

export interface ExecResult {
  stdout: string;
  stderr: string;
  /** exit status; null when the command ended by a signal */
  code: number | null;
}

const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;

export class ExecSession {
  private constructor(
    private readonly connection: SshConnection,
    private readonly target: SshTarget,
  ) {}

  static async open(target: SshTarget, options: { name?: string } = {}): Promise<ExecSession> {
    return new ExecSession(await openSshConnection(target, options), target);
  }

  get where(): string {
    return this.connection.where;
  }

  get hostKey(): string {
    return this.connection.hostKey;
  }

  /** Runs one command line (the login shell of the remote user parses it). */
  exec(command: string, options: { timeoutMs?: number } = {}): Promise<ExecResult> {
    const timeout = options.timeoutMs ?? this.target.command_timeout_ms;
    if (this.connection.closed) {
      return Promise.reject(
        new DeviceUnreachable(`${this.where}: the SSH connection is closed; "${command}" was not sent`),
      );
    }
    return new Promise<ExecResult>((resolve, reject) => {
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let size = 0;
      let code: number | null = null;
      let channel: ClientChannel | null = null;
      let settled = false;
      let unsubscribe = () => undefined as void;
      const finish = (error: Error | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        unsubscribe();
        if (error) {
          channel?.close();
          reject(error);
        } else {
          resolve({ stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8"), code });
        }
      };
      const timer = setTimeout(() => {
        // a command that did not end in time may still be running: the connection is not trusted again
        this.connection.close();
        finish(new DeviceUnreachable(`No answer from ${this.where} to "${command}" within ${timeout} ms`));
      }, timeout);
      unsubscribe = this.connection.onClose(() =>
        finish(new DeviceUnreachable(`${this.where}: the SSH connection closed while running "${command}"`)),
      );
      const collect = (into: Buffer[]) => (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_OUTPUT_BYTES) {
          finish(new DeviceUnreachable(`${this.where}: output of "${command}" exceeded ${MAX_OUTPUT_BYTES} bytes`));
          return;
        }
        into.push(chunk);
      };
      this.connection.client.exec(command, (e, ch) => {
        if (e) {
          finish(new DeviceUnreachable(`${this.where} refused to run a command over SSH: ${e.message}`));
          return;
        }
        channel = ch;
        ch.on("data", collect(out));
        ch.stderr.on("data", collect(err));
        ch.on("exit", (status: number | null) => {
          code = typeof status === "number" ? status : null;
        });
        ch.on("close", () => finish(null));
      });
    });
  }

  close(): void {
    this.connection.close();
  }
}
