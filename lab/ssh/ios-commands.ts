/**
 * The commands the lab's IOS face understands, as IOS matches them: keywords may be
 * cut short to a unique prefix ("sh int status"), a line that fits no command is
 * answered with the "^" marker under the first word that did not fit, one that stops
 * early with "% Incomplete command.", one whose short word fits two commands with
 * "% Ambiguous command". Configuration sub-modes fall back to the global configuration
 * commands, as IOS does.
 */
import { moveAccessVlan, type SwitchConfig } from "../config";
import type { VirtualSwitch } from "../model";
import { findInterface, type IosInterface } from "./ios-names";
import * as render from "./ios-render";

export type Mode = "user" | "exec" | "config" | "config-if" | "config-vlan";

/** What a command may look at and change; the shell owns it. */
export interface CommandContext {
  model: VirtualSwitch;
  interfaces: IosInterface[];
  mode: Mode;
  /** the interface of config-if mode */
  iface: IosInterface | null;
  /** the VLAN of config-vlan mode */
  vlan: number | null;
  termLength: number;
  termWidth: number;
  /** applies a configuration change to the running config (unless a fault swallows it) */
  change(edit: (cfg: SwitchConfig) => void): void;
  /** copies running to startup (unless a fault swallows it) */
  save(): void;
  /** ask for the enable secret (the shell takes over the next line) */
  askEnableSecret(): void;
  /** end the connection */
  logout(): void;
}

type Arg = IosInterface | number | string;
interface Definition {
  modes: Mode[];
  words: string[];
  run(ctx: CommandContext, args: Arg[]): string;
  /** offered only when this holds (e.g. PoE commands on PoE ports) */
  when?: (ctx: CommandContext) => boolean;
}

export type Outcome =
  | { kind: "output"; text: string }
  | { kind: "invalid"; column: number }
  | { kind: "incomplete" }
  | { kind: "ambiguous" };

const EXEC: Mode[] = ["user", "exec"];
const PRIV: Mode[] = ["exec"];
const CONF: Mode[] = ["config", "config-if", "config-vlan"];
const IF: Mode[] = ["config-if"];

const vlanName = (id: number) => `VLAN${String(id).padStart(4, "0")}`;

function currentPort(ctx: CommandContext) {
  const x = ctx.iface!;
  return { x, bp: x.iface.bridgePort, ifIndex: x.iface.ifIndex };
}

const definitions: Definition[] = [
  { modes: EXEC, words: ["enable"], run: (ctx) => (ctx.mode === "user" ? (ctx.askEnableSecret(), "") : "") },
  { modes: PRIV, words: ["disable"], run: (ctx) => ((ctx.mode = "user"), "") },
  ...["exit", "logout", "quit"].map((w): Definition => ({ modes: EXEC, words: [w], run: (ctx) => (ctx.logout(), "") })),
  {
    modes: EXEC,
    words: ["terminal", "length", "NUMBER"],
    run: (ctx, [n]) => terminal(ctx, "termLength", n as number, 512),
  },
  {
    modes: EXEC,
    words: ["terminal", "width", "NUMBER"],
    run: (ctx, [n]) => terminal(ctx, "termWidth", n as number, 512),
  },
  { modes: EXEC, words: ["show", "version"], run: (ctx) => render.showVersion(ctx.model) },
  { modes: EXEC, words: ["show", "interfaces", "status"], run: (ctx) => render.showInterfacesStatus(ctx.model) },
  {
    modes: EXEC,
    words: ["show", "interfaces", "IFACE", "status"],
    run: (ctx, [x]) => render.showInterfacesStatus(ctx.model, x as IosInterface),
  },
  {
    modes: EXEC,
    words: ["show", "interfaces", "description"],
    run: (ctx) => render.showInterfacesDescription(ctx.model),
  },
  {
    modes: EXEC,
    words: ["show", "interfaces", "IFACE", "description"],
    run: (ctx, [x]) => render.showInterfacesDescription(ctx.model, x as IosInterface),
  },
  {
    modes: EXEC,
    words: ["show", "interfaces", "switchport"],
    run: (ctx) => render.showInterfacesSwitchport(ctx.model),
  },
  {
    modes: EXEC,
    words: ["show", "interfaces", "IFACE", "switchport"],
    run: (ctx, [x]) => render.showInterfacesSwitchport(ctx.model, x as IosInterface),
  },
  { modes: EXEC, words: ["show", "vlan"], run: (ctx) => render.showVlanBrief(ctx.model) },
  { modes: EXEC, words: ["show", "vlan", "brief"], run: (ctx) => render.showVlanBrief(ctx.model) },
  {
    modes: EXEC,
    words: ["show", "power", "inline"],
    run: (ctx) => render.showPowerInline(ctx.model)!,
    when: (ctx) => !!ctx.model.poeMain,
  },
  {
    modes: EXEC,
    words: ["show", "power", "inline", "IFACE"],
    run: (ctx, [x]) => render.showPowerInline(ctx.model, x as IosInterface)!,
    when: (ctx) => !!ctx.model.poeMain,
  },
  { modes: EXEC, words: ["show", "ip", "interface", "brief"], run: (ctx) => render.showIpInterfaceBrief(ctx.model) },
  {
    modes: EXEC,
    words: ["show", "ip", "interface", "brief", "IFACE"],
    run: (ctx, [x]) => render.showIpInterfaceBrief(ctx.model, x as IosInterface),
  },
  { modes: EXEC, words: ["show", "mac", "address-table"], run: (ctx) => render.showMacAddressTable(ctx.model) },
  { modes: EXEC, words: ["show", "ip", "arp"], run: (ctx) => render.showIpArp(ctx.model) },
  {
    modes: EXEC,
    words: ["show", "lldp", "neighbors", "detail"],
    run: (ctx) => render.showLldpNeighborsDetail(ctx.model),
  },
  { modes: PRIV, words: ["show", "running-config"], run: (ctx) => render.showRunningConfig(ctx.model) },
  {
    modes: PRIV,
    words: ["show", "running-config", "interface", "IFACE"],
    run: (ctx, [x]) => render.showRunningInterface(ctx.model, x as IosInterface),
  },
  {
    modes: PRIV,
    words: ["configure", "terminal"],
    run: (ctx) => ((ctx.mode = "config"), "Enter configuration commands, one per line.  End with CNTL/Z."),
  },
  ...[["write"], ["write", "memory"]].map((words): Definition => ({
    modes: PRIV,
    words,
    run: (ctx) => {
      ctx.save();
      return "Building configuration...\n[OK]";
    },
  })),
  // global configuration
  { modes: CONF, words: ["end"], run: (ctx) => leave(ctx, "exec") },
  {
    modes: ["config"],
    words: ["exit"],
    run: (ctx) => leave(ctx, "exec"),
  },
  {
    modes: ["config-if", "config-vlan"],
    words: ["exit"],
    run: (ctx) => leave(ctx, "config"),
  },
  {
    modes: CONF,
    words: ["interface", "IFACE"],
    run: (ctx, [x]) => {
      ctx.mode = "config-if";
      ctx.iface = x as IosInterface;
      ctx.vlan = null;
      return "";
    },
  },
  {
    modes: CONF,
    words: ["vlan", "VLAN"],
    run: (ctx, [id]) => {
      const vid = id as number;
      if (!ctx.model.vlan(vid)) {
        ctx.change((cfg) =>
          cfg.vlans.set(vid, { name: vlanName(vid), active: true, egress: new Set(), untagged: new Set() }),
        );
      }
      ctx.mode = "config-vlan";
      ctx.vlan = vid;
      ctx.iface = null;
      return "";
    },
  },
  { modes: CONF, words: ["no", "vlan", "VLAN"], run: (ctx, [id]) => deleteVlan(ctx, id as number) },
  // interface configuration
  { modes: IF, words: ["shutdown"], run: (ctx) => setPort(ctx, { adminUp: false }) },
  { modes: IF, words: ["no", "shutdown"], run: (ctx) => setPort(ctx, { adminUp: true }) },
  {
    modes: IF,
    words: ["description", "REST"],
    run: (ctx, [text]) =>
      (text as string).length > 240
        ? "% Description is longer than 240 characters"
        : setPort(ctx, { alias: text as string }),
  },
  { modes: IF, words: ["no", "description"], run: (ctx) => setPort(ctx, { alias: "" }) },
  {
    modes: IF,
    words: ["switchport", "access", "vlan", "VLAN"],
    run: (ctx, [id]) => accessVlan(ctx, id as number),
    when: (ctx) => ctx.iface?.iface.bridgePort !== null,
  },
  {
    modes: IF,
    words: ["switchport", "trunk", "native", "vlan", "VLAN"],
    run: (ctx, [id]) => nativeVlan(ctx, id as number),
    when: (ctx) => ctx.iface?.iface.bridgePort !== null,
  },
  ...(["auto", "never"] as const).map((word): Definition => ({
    modes: IF,
    words: ["power", "inline", word],
    run: (ctx) => setPort(ctx, { poeEnabled: word === "auto" }),
    // IOS knows no PoE commands on ports without PoE
    when: (ctx) => !!ctx.iface?.iface.poe,
  })),
  // VLAN configuration
  {
    modes: ["config-vlan"],
    words: ["name", "WORD"],
    run: (ctx, [name]) => {
      const text = name as string;
      if (text.length > 32) return "%Vlan name length must be less than 33 characters";
      const vid = ctx.vlan!;
      ctx.change((cfg) => {
        const v = cfg.vlans.get(vid);
        if (v) v.name = text;
      });
      return "";
    },
  },
];

function terminal(ctx: CommandContext, key: "termLength" | "termWidth", n: number, max: number): string {
  if (n > max) return `% Invalid input: ${key === "termLength" ? "length" : "width"} is 0 to ${max}`;
  ctx[key] = n;
  return "";
}

function leave(ctx: CommandContext, to: Mode): string {
  ctx.mode = to;
  ctx.iface = null;
  ctx.vlan = null;
  return "";
}

function setPort(
  ctx: CommandContext,
  settings: Partial<{ adminUp: boolean; alias: string; poeEnabled: boolean }>,
): string {
  const { ifIndex } = currentPort(ctx);
  ctx.change((cfg) => Object.assign(cfg.ports.get(ifIndex)!, settings));
  return "";
}

function accessVlan(ctx: CommandContext, vid: number): string {
  const { x, bp } = currentPort(ctx);
  // an access VLAN set on a trunk is kept by IOS but unused; the lab does not model it
  if (render.portMode(ctx.model, x.iface)!.trunk) return "";
  const exists = !!ctx.model.vlan(vid);
  ctx.change((cfg) => {
    if (!cfg.vlans.has(vid))
      cfg.vlans.set(vid, { name: vlanName(vid), active: true, egress: new Set(), untagged: new Set() });
    moveAccessVlan(cfg, bp!, vid);
  });
  return exists ? "" : `% Access VLAN does not exist. Creating vlan ${vid}`;
}

function nativeVlan(ctx: CommandContext, vid: number): string {
  const { x, bp } = currentPort(ctx);
  if (!render.portMode(ctx.model, x.iface)!.trunk) return "";
  // lab rule: the model keeps every PVID an existing VLAN, so no native VLAN on a VLAN that is not there
  if (!ctx.model.vlan(vid)) return `% VLAN ${vid} does not exist (create it first)`;
  ctx.change((cfg) => {
    const old = cfg.pvid.get(bp!);
    // the old native VLAN stays allowed on the trunk, now tagged
    if (old !== undefined) cfg.vlans.get(old)?.untagged.delete(bp!);
    const v = cfg.vlans.get(vid)!;
    v.untagged.add(bp!);
    v.egress.add(bp!);
    cfg.pvid.set(bp!, vid);
  });
  return "";
}

function deleteVlan(ctx: CommandContext, vid: number): string {
  if (vid === 1) return "%Default VLAN 1 may not be deleted.";
  if (!ctx.model.vlan(vid)) return "";
  const users = ctx.interfaces
    .filter((x) => x.iface.bridgePort !== null && ctx.model.pvid(x.iface.bridgePort) === vid)
    .map((x) => x.short);
  // lab rule (kept for the SNMP face too): a VLAN that is a port's PVID stays
  if (users.length > 0) return `% VLAN ${vid} is the access or native VLAN of ${users.join(", ")}; move them first`;
  ctx.change((cfg) => cfg.vlans.delete(vid));
  return "";
}

interface Token {
  text: string;
  at: number;
}

function tokenize(line: string): Token[] {
  return [...line.matchAll(/\S+/g)].map((m) => ({ text: m[0], at: m.index ?? 0 }));
}

interface Match {
  def: Definition;
  args: Arg[];
  exact: number;
}

type Attempt = { ok: Match } | { incomplete: true } | { failedAt: number };

function attempt(def: Definition, tokens: Token[], line: string, ctx: CommandContext): Attempt {
  const args: Arg[] = [];
  let exact = 0;
  let t = 0;
  for (let w = 0; w < def.words.length; w++) {
    const word = def.words[w];
    const token = tokens[t];
    if (!token) return { incomplete: true };
    if (word === "REST") {
      args.push(line.slice(token.at).trimEnd());
      t = tokens.length;
      continue;
    }
    if (word === "IFACE") {
      // "GigabitEthernet 1/0/1" is one name in two words
      const two =
        tokens[t + 1] && /^[A-Za-z-]+$/.test(token.text)
          ? findInterface(ctx.interfaces, `${token.text}${tokens[t + 1].text}`)
          : null;
      const one = findInterface(ctx.interfaces, token.text);
      if (two) {
        args.push(two);
        t += 2;
      } else if (one) {
        args.push(one);
        t += 1;
      } else {
        return { failedAt: token.at };
      }
      continue;
    }
    if (word === "VLAN" || word === "NUMBER") {
      const n = /^\d+$/.test(token.text) ? Number(token.text) : NaN;
      if (!(n >= (word === "VLAN" ? 1 : 0) && n <= (word === "VLAN" ? 4094 : 65535))) return { failedAt: token.at };
      args.push(n);
      t++;
      continue;
    }
    if (word === "WORD") {
      args.push(token.text);
      t++;
      continue;
    }
    if (!word.startsWith(token.text.toLowerCase())) return { failedAt: token.at };
    if (word === token.text.toLowerCase()) exact++;
    t++;
  }
  if (t < tokens.length) return { failedAt: tokens[t].at };
  return { ok: { def, args, exact } };
}

/** Finds the command a line means in the current mode and runs it. */
export function runLine(ctx: CommandContext, line: string): Outcome {
  const tokens = tokenize(line);
  const candidates = definitions.filter((d) => d.modes.includes(ctx.mode) && (!d.when || d.when(ctx)));
  const matches: Match[] = [];
  let incomplete = false;
  let furthest = tokens[0]?.at ?? 0;
  for (const def of candidates) {
    const a = attempt(def, tokens, line, ctx);
    if ("ok" in a) matches.push(a.ok);
    else if ("incomplete" in a) incomplete = true;
    else furthest = Math.max(furthest, a.failedAt);
  }
  if (ambiguous(tokens, candidates)) return { kind: "ambiguous" };
  if (matches.length === 0) return incomplete ? { kind: "incomplete" } : { kind: "invalid", column: furthest };
  const best = Math.max(...matches.map((m) => m.exact));
  const chosen = matches.filter((m) => m.exact === best).sort((a, b) => b.def.words.length - a.def.words.length)[0];
  return { kind: "output", text: chosen.def.run(ctx, chosen.args) };
}

const isPlaceholder = (word: string | undefined) => word !== undefined && /^[A-Z]+$/.test(word);

/**
 * A cut-short word that starts two different keywords at its place ("sh i": interfaces
 * and ip; "s" in interface mode: shutdown and switchport), among the commands that
 * still fit the words before it.
 */
function ambiguous(tokens: Token[], candidates: Definition[]): boolean {
  let alive = candidates;
  for (let i = 0; i < tokens.length && alive.length > 0; i++) {
    const typed = tokens[i].text.toLowerCase();
    const keywords = new Set(
      alive.map((d) => d.words[i]).filter((w): w is string => !!w && !isPlaceholder(w) && w.startsWith(typed)),
    );
    if (keywords.size > 1 && !keywords.has(typed)) return true;
    // past a placeholder (an interface may take two words) positions no longer line up
    if (alive.some((d) => isPlaceholder(d.words[i]))) return false;
    alive = alive.filter((d) => d.words[i]?.startsWith(typed));
  }
  return false;
}

/** Help for "?": the words that can come first in this mode. */
export function helpWords(ctx: CommandContext): string[] {
  const words = new Set(
    definitions.filter((d) => d.modes.includes(ctx.mode) && (!d.when || d.when(ctx))).map((d) => d.words[0]),
  );
  return [...words].sort();
}
