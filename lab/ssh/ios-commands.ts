/**
 * The commands the lab's IOS face understands, as IOS matches them: keywords may be
 * cut short to a unique prefix ("sh int status"), a line that fits no command is
 * answered with the "^" marker under the first word that did not fit, one that stops
 * early with "% Incomplete command.", one whose short word fits two commands with
 * "% Ambiguous command". Configuration sub-modes fall back to the global configuration
 * commands, as IOS does.
 */
import { carryNewVlan, configureSwitchport, setPortMode, switchportOf, type SwitchConfig } from "../config";
import type { VirtualSwitch } from "../model";
import { findInterface, type IosInterface } from "./ios-names";
import * as render from "./ios-render";
import { matchWords, tokenize, type Token } from "../cli-grammar";

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

type Arg = IosInterface | number | string | number[];
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

const ALL_VLANS = Array.from({ length: 4094 }, (_, i) => i + 1);

function isSwitchport(ctx: CommandContext): boolean {
  return ctx.iface?.iface.bridgePort !== null;
}

function without(from: Iterable<number>, list: number[]): Set<number> {
  const out = new Set(from);
  for (const v of list) out.delete(v);
  return out;
}

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
        ctx.change((cfg) => {
          cfg.vlans.set(vid, { name: vlanName(vid), active: true, egress: new Set(), untagged: new Set() });
          // trunks allowing it carry it at once
          carryNewVlan(cfg, vid);
        });
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
    when: isSwitchport,
  },
  {
    modes: IF,
    words: ["switchport", "trunk", "native", "vlan", "VLAN"],
    run: (ctx, [id]) => nativeVlan(ctx, id as number),
    when: isSwitchport,
  },
  {
    modes: IF,
    words: ["no", "switchport", "trunk", "native", "vlan"],
    run: (ctx) => nativeVlan(ctx, 1),
    when: isSwitchport,
  },
  { modes: IF, words: ["no", "switchport", "access", "vlan"], run: (ctx) => accessVlan(ctx, 1), when: isSwitchport },
  ...(["access", "trunk"] as const).map((mode): Definition => ({
    modes: IF,
    words: ["switchport", "mode", mode],
    run: (ctx) => portMode(ctx, mode),
    when: isSwitchport,
  })),
  // switchport trunk allowed vlan { LIST | all | none | add LIST | remove LIST | except LIST }
  ...(
    [
      [["VLANLIST"], (_old, [list]) => new Set(list as number[])],
      [["all"], () => "all"],
      [["none"], () => new Set<number>()],
      [["add", "VLANLIST"], (old, [list]) => (old === "all" ? "all" : new Set([...old, ...(list as number[])]))],
      [["remove", "VLANLIST"], (old, [list]) => without(old === "all" ? ALL_VLANS : old, list as number[])],
      [["except", "VLANLIST"], (_old, [list]) => without(ALL_VLANS, list as number[])],
    ] as Array<[string[], (old: ReadonlySet<number> | "all", args: Arg[]) => ReadonlySet<number> | "all"]>
  ).map(([words, next]): Definition => ({
    modes: IF,
    words: ["switchport", "trunk", "allowed", "vlan", ...words],
    run: (ctx, args) => allowedVlans(ctx, (old) => next(old, args)),
    when: isSwitchport,
  })),
  {
    modes: IF,
    words: ["no", "switchport", "trunk", "allowed", "vlan"],
    run: (ctx) => allowedVlans(ctx, () => "all"),
    when: isSwitchport,
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

/**
 * Makes the model's port mode what the configuration says; a port that was a trunk only
 * by its memberships (Q-BRIDGE profiles) gets its settings from them first.
 */
function modeSettled(ctx: CommandContext, cfg: SwitchConfig, bp: number): void {
  const mode = render.portMode(ctx.model, ctx.iface!.iface)!;
  if (mode.trunk && !cfg.portModes.has(bp)) {
    cfg.switchport.set(bp, { access: 1, native: mode.native, allowed: new Set(mode.carried) });
    cfg.portModes.set(bp, "trunk");
  }
}

/** `switchport access vlan`: kept on a trunk, used at once on an access port (IOS creates a missing VLAN) */
function accessVlan(ctx: CommandContext, vid: number): string {
  const { bp } = currentPort(ctx);
  const exists = !!ctx.model.vlan(vid);
  ctx.change((cfg) => {
    if (!cfg.vlans.has(vid))
      cfg.vlans.set(vid, { name: vlanName(vid), active: true, egress: new Set(), untagged: new Set() });
    modeSettled(ctx, cfg, bp!);
    configureSwitchport(cfg, bp!, { access: vid });
  });
  return exists ? "" : `% Access VLAN does not exist. Creating vlan ${vid}`;
}

/** `switchport trunk native vlan`: used at once on a trunk, kept on an access port */
function nativeVlan(ctx: CommandContext, vid: number): string {
  const { bp } = currentPort(ctx);
  // lab rule: the model keeps every PVID an existing VLAN, so no native VLAN on a VLAN that is not there
  if (!ctx.model.vlan(vid)) return `% VLAN ${vid} does not exist (create it first)`;
  ctx.change((cfg) => {
    modeSettled(ctx, cfg, bp!);
    configureSwitchport(cfg, bp!, { native: vid });
  });
  return "";
}

/** `switchport trunk allowed vlan ...`: the list as the command makes it from the one configured now */
function allowedVlans(
  ctx: CommandContext,
  next: (old: ReadonlySet<number> | "all") => ReadonlySet<number> | "all",
): string {
  const { bp } = currentPort(ctx);
  ctx.change((cfg) => {
    modeSettled(ctx, cfg, bp!);
    const allowed = next(switchportOf(cfg, bp!).allowed);
    const all = allowed === "all" || ALL_VLANS.every((v) => allowed.has(v));
    configureSwitchport(cfg, bp!, { allowed: all ? "all" : allowed });
  });
  return "";
}

/** `switchport mode access|trunk`: the kept settings of the new mode take effect */
function portMode(ctx: CommandContext, mode: "access" | "trunk"): string {
  const { bp } = currentPort(ctx);
  const before = render.portMode(ctx.model, ctx.iface!.iface)!;
  const untagged = mode === "trunk" ? before.native : before.access;
  // lab rule, as above: the mode's untagged VLAN must exist
  if (!ctx.model.vlan(untagged)) return `% VLAN ${untagged} does not exist (create it first)`;
  ctx.change((cfg) => {
    modeSettled(ctx, cfg, bp!);
    setPortMode(cfg, bp!, mode);
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

interface Match {
  def: Definition;
  args: Arg[];
  exact: number;
}

type Attempt = { ok: Match } | { incomplete: true } | { failedAt: number };

/** IOS takes any unambiguous start of a keyword ("sh int st") */
function attempt(def: Definition, tokens: Token[], line: string, ctx: CommandContext): Attempt {
  const m = matchWords<IosInterface>(def.words, tokens, line, {
    findInterface: (text) => findInterface(ctx.interfaces, text),
    keyword: (word, typed) => word.startsWith(typed),
  });
  if ("ok" in m) return { ok: { def, args: m.ok.args, exact: m.ok.exact } };
  return "incomplete" in m ? { incomplete: true } : m;
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
