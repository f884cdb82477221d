/**
 * One terminal session of the lab's IOS face: what a person typing at a Catalyst
 * switch sees. Keys are echoed, Enter runs the line, Backspace edits, "?" prints help
 * and redraws the line (so a "?" never reaches a command), Ctrl-Z and Ctrl-C leave
 * configuration mode. `enable` asks for the secret without echo. Output longer than the
 * terminal length stops at " --More-- " until a key: space for the next page, Enter for
 * one more line, anything else ends it. Faults (latency, drop, hang, refusal) apply per
 * command line.
 */
import type { SwitchConfig } from "../config";
import type { VirtualSwitch } from "../model";
import type { SshCounters, SshFaults } from "./faults";
import { type CommandContext, helpWords, type Mode, runLine } from "./ios-commands";
import { iosInterfaces } from "./ios-names";

export interface IosShellOptions {
  model: VirtualSwitch;
  hostname: string;
  enableSecret: string;
  /** the login lands in privileged mode ("#") instead of user mode (">") */
  privileged: boolean;
  faults: SshFaults;
  counters: SshCounters;
  /** sent before the first prompt */
  banner: string;
  write(text: string): void;
  /** ends the connection */
  close(): void;
}

const MORE = " --More-- ";
const ERASE_MORE = "\b".repeat(MORE.length) + " ".repeat(MORE.length) + "\b".repeat(MORE.length);
const MAX_LINE = 4096;

type State = "line" | "secret" | "busy" | "paging" | "closed";

export class IosShell {
  private state: State = "line";
  private pending = "";
  private line = "";
  private secret = "";
  private secretTries = 0;
  private afterCr = false;
  private pages: string[] = [];
  private readonly ctx: CommandContext;

  constructor(private readonly o: IosShellOptions) {
    const model = o.model;
    this.ctx = {
      model,
      interfaces: iosInterfaces(model),
      mode: o.privileged ? "exec" : "user",
      iface: null,
      vlan: null,
      termLength: 24,
      termWidth: 80,
      change: (edit: (cfg: SwitchConfig) => void) => {
        if (!o.faults.lieOnWrite) model.update(edit);
      },
      save: () => {
        if (!o.faults.lieOnWrite) model.save();
      },
      askEnableSecret: () => {
        this.state = "secret";
        this.secret = "";
      },
      logout: () => this.end(),
    };
    o.write(o.banner + this.prompt());
  }

  /** keys from the client */
  input(data: string): void {
    this.pending += data;
    this.pump();
  }

  end(): void {
    if (this.state === "closed") return;
    this.state = "closed";
    this.o.close();
  }

  private prompt(): string {
    const suffix: Record<Mode, string> = {
      user: "",
      exec: "",
      config: "(config)",
      "config-if": "(config-if)",
      "config-vlan": "(config-vlan)",
    };
    return `${this.o.hostname}${suffix[this.ctx.mode]}${this.ctx.mode === "user" ? ">" : "#"}`;
  }

  private pump(): void {
    while (this.pending.length > 0 && (this.state === "line" || this.state === "secret" || this.state === "paging")) {
      const ch = this.pending[0];
      this.pending = this.pending.slice(1);
      // "\r\n" from a client is one Enter
      if (ch === "\n" && this.afterCr) {
        this.afterCr = false;
        continue;
      }
      this.afterCr = ch === "\r";
      if (this.state === "paging") this.pagerKey(ch);
      else if (this.state === "secret") this.secretKey(ch);
      else this.lineKey(ch);
    }
  }

  private lineKey(ch: string): void {
    const w = (t: string) => this.o.write(t);
    if (ch === "\r" || ch === "\n") {
      const line = this.line;
      this.line = "";
      w("\r\n");
      this.enter(line);
    } else if (ch === "\x7f" || ch === "\b") {
      if (this.line.length > 0) {
        this.line = this.line.slice(0, -1);
        w("\b \b");
      }
    } else if (ch === "?") {
      // IOS answers "?" at once and keeps the line without it
      w(
        "?\r\n" +
          helpWords(this.ctx)
            .map((x) => `  ${x}`)
            .join("\r\n") +
          "\r\n\r\n" +
          this.prompt() +
          this.line,
      );
    } else if (ch === "\x1a" || ch === "\x03") {
      this.line = "";
      if (this.ctx.mode !== "user" && this.ctx.mode !== "exec") this.ctx.mode = "exec";
      w("^Z\r\n" + this.prompt());
    } else if (ch >= " " && this.line.length < MAX_LINE) {
      this.line += ch;
      w(ch);
    }
    // other control keys (tab, escape sequences) do nothing here
  }

  private secretKey(ch: string): void {
    if (ch !== "\r" && ch !== "\n") {
      if (ch >= " ") this.secret += ch;
      return;
    }
    this.o.write("\r\n");
    if (this.secret === this.o.enableSecret && this.o.enableSecret !== "") {
      this.ctx.mode = "exec";
      this.secretTries = 0;
      this.state = "line";
      this.o.write(this.prompt());
      return;
    }
    this.secret = "";
    if (++this.secretTries < 3) {
      this.o.write("Password: ");
      return;
    }
    this.secretTries = 0;
    this.state = "line";
    this.o.write("% Bad secrets\r\n\r\n" + this.prompt());
  }

  private enter(line: string): void {
    if (line.trim() === "") {
      this.o.write(this.prompt());
      return;
    }
    this.o.counters.record(line);
    const verdict = this.o.faults.verdict(line);
    if (verdict.kind === "drop") {
      this.end();
      return;
    }
    this.state = "busy";
    if (verdict.kind === "hang") return; // never answered; the session stays "busy"
    const answer = () => {
      if (this.state === "closed") return;
      const promptBefore = this.prompt();
      this.state = "line";
      const text = verdict.kind === "refuse" ? `% ${verdict.message}` : this.run(line, promptBefore);
      if ((this.state as State) === "closed") return;
      if ((this.state as State) === "secret") {
        this.o.write("Password: ");
      } else {
        this.show(text);
      }
      this.pump();
    };
    setTimeout(answer, this.o.faults.latencyMs);
  }

  private run(line: string, promptBefore: string): string {
    const outcome = runLine(this.ctx, line);
    switch (outcome.kind) {
      case "output":
        return outcome.text;
      case "incomplete":
        return "% Incomplete command.\n";
      case "ambiguous":
        return `% Ambiguous command:  "${line.trim()}"`;
      case "invalid":
        return `${" ".repeat(promptBefore.length + outcome.column)}^\n% Invalid input detected at '^' marker.\n`;
    }
  }

  /** output lines, paged when the terminal length is not 0, then the prompt */
  private show(text: string): void {
    const lines = text === "" ? [] : text.split("\n");
    if (this.ctx.termLength === 0 || lines.length < this.ctx.termLength) {
      this.o.write(lines.map((l) => `${l}\r\n`).join("") + this.prompt());
      return;
    }
    this.pages = lines;
    this.nextLines(this.ctx.termLength - 1);
  }

  private nextLines(count: number): void {
    const chunk = this.pages.splice(0, count);
    this.o.write(chunk.map((l) => `${l}\r\n`).join(""));
    if (this.pages.length > 0) {
      this.state = "paging";
      this.o.write(MORE);
    } else {
      this.state = "line";
      this.o.write(this.prompt());
    }
  }

  private pagerKey(ch: string): void {
    this.o.write(ERASE_MORE);
    if (ch === " ") this.nextLines(this.ctx.termLength - 1);
    else if (ch === "\r" || ch === "\n") this.nextLines(1);
    else {
      this.pages = [];
      this.nextLines(0);
    }
  }
}
