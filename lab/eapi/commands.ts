/**
 * The EOS commands the lab's eAPI face runs, one runCmds request being a command-line
 * session in miniature: it starts in privileged exec mode, `configure` enters global
 * configuration, `interface X` and `vlan N` their sub-modes (from any configuration
 * mode, as EOS takes them), `exit` and `end` leave them. Keywords are matched whole
 * (eAPI does not expand abbreviations unless the request asks for autoComplete, then a
 * unique prefix will do). A command that fits nothing fails as EOS fails it: error 1002,
 * "invalid command", with "Invalid input (at token n: 'word')"; one that fits but cannot
 * be done fails with 1000, "could not run command", and EOS's words.
 *
 * Changes go to the lab model command by command (model.update), so the SNMP and SSH
 * faces see them at once, and a request that fails half-way keeps what ran before, as
 * on EOS.
 */
import { carryNewVlan, configureSwitchport, setPortMode, switchportOf, type SwitchConfig } from "../config";
import type { LabInterface, VirtualSwitch } from "../model";
import * as render from "./render";
import { matchWords, tokenize, type Token } from "../cli-grammar";

export type Mode = "exec" | "config" | "config-if" | "config-vlan";
export type Format = "json" | "text";

/** A command that failed: its eAPI error code, the message's tail and the per-command errors. */
export class EosCommandError extends Error {
  constructor(
    readonly code: 1000 | 1002 | 1003 | 1005,
    readonly kind: string,
    readonly errors: string[],
  ) {
    super(errors.join("; "));
  }
}

export interface SessionOptions {
  model: VirtualSwitch;
  /** expand unique keyword prefixes (runCmds' autoComplete) */
  autoComplete: boolean;
  /** secret `enable` wants as its input; "" takes any */
  enableSecret: string;
  /** apply a change to the running configuration (unless a fault swallows it) */
  change(edit: (cfg: SwitchConfig) => void): void;
  /** copy running to startup (unless a fault swallows it) */
  save(): void;
}

type Arg = LabInterface | number | string | number[];
type Result = Record<string, unknown>;
interface Definition {
  modes: readonly Mode[];
  words: string[];
  run(s: EosSession, args: Arg[], format: Format): Result;
  /** a configuration command (what the lab's write faults apply to) */
  write?: boolean;
}

const EXEC: Mode[] = ["exec"];
const CONF: Mode[] = ["config", "config-if", "config-vlan"];
const IF: Mode[] = ["config-if"];
const VLAN: Mode[] = ["config-vlan"];
const ALL_VLANS = Array.from({ length: 4094 }, (_, i) => i + 1);

const failed = (...errors: string[]) => new EosCommandError(1000, "could not run command", errors);

/** a show command: its JSON model, or in text format its text where the lab renders one */
function show(json: (s: EosSession, args: Arg[]) => unknown, text?: (s: EosSession, args: Arg[]) => string) {
  return (s: EosSession, args: Arg[], format: Format): Result => {
    if (format === "json") return json(s, args) as Result;
    if (!text) throw failed("This command's text output is not modelled by the lab; ask for JSON");
    return { output: text(s, args) };
  };
}

const iface = (a: Arg) => a as LabInterface;

const definitions: Definition[] = [
  {
    modes: [...EXEC, ...CONF],
    words: ["enable"],
    run: () => ({}),
  },
  {
    modes: EXEC,
    words: ["show", "version"],
    run: show(
      (s) => render.showVersion(s.model),
      (s) => render.showVersionText(s.model),
    ),
  },
  {
    modes: EXEC,
    words: ["show", "hostname"],
    run: show(
      (s) => render.showHostname(s.model),
      (s) => `Hostname: ${s.model.system.sysName}\nFQDN:     ${s.model.system.sysName}\n`,
    ),
  },
  { modes: EXEC, words: ["show", "interfaces"], run: show((s) => render.showInterfaces(s.model)) },
  {
    modes: EXEC,
    words: ["show", "interfaces", "IFACE"],
    run: show((s, [x]) => render.showInterfaces(s.model, iface(x))),
  },
  { modes: EXEC, words: ["show", "interfaces", "status"], run: show((s) => render.showInterfacesStatus(s.model)) },
  {
    modes: EXEC,
    words: ["show", "interfaces", "IFACE", "status"],
    run: show((s, [x]) => render.showInterfacesStatus(s.model, iface(x))),
  },
  {
    modes: EXEC,
    words: ["show", "interfaces", "description"],
    run: show((s) => render.showInterfacesDescription(s.model)),
  },
  {
    modes: EXEC,
    words: ["show", "interfaces", "IFACE", "description"],
    run: show((s, [x]) => render.showInterfacesDescription(s.model, iface(x))),
  },
  {
    modes: EXEC,
    words: ["show", "interfaces", "switchport"],
    run: show((s) => render.showInterfacesSwitchport(s.model)),
  },
  {
    modes: EXEC,
    words: ["show", "interfaces", "IFACE", "switchport"],
    run: show((s, [x]) => render.showInterfacesSwitchport(s.model, iface(x))),
  },
  { modes: EXEC, words: ["show", "vlan"], run: show((s) => render.showVlan(s.model)) },
  {
    modes: EXEC,
    words: ["show", "vlan", "VLAN"],
    run: show((s, [id]) => {
      if (!s.model.vlan(id as number)) throw failed(`VLAN ${id as number} not found in current VLAN database`);
      return render.showVlan(s.model, id as number);
    }),
  },
  { modes: EXEC, words: ["show", "lldp", "neighbors"], run: show((s) => render.showLldpNeighbors(s.model)) },
  {
    modes: EXEC,
    words: ["show", "lldp", "neighbors", "detail"],
    run: show((s) => render.showLldpNeighborsDetail(s.model)),
  },
  { modes: EXEC, words: ["show", "mac", "address-table"], run: show((s) => render.showMacAddressTable(s.model)) },
  { modes: EXEC, words: ["show", "ip", "arp"], run: show((s) => render.showIpArp(s.model)) },
  ...(
    [
      [["show", "running-config"], "running", false],
      [["show", "running-config", "all"], "running", true],
      [["show", "startup-config"], "startup", false],
    ] as const
  ).map(([words, which, all]): Definition => {
    const text = (s: EosSession) =>
      render.configText(s.model, which === "running" ? s.model.running : s.model.startup, all, words.join(" "));
    return { modes: EXEC, words: [...words], run: show((s) => render.configJson(text(s)), text) };
  }),
  {
    modes: EXEC,
    words: ["show", "running-config", "interfaces", "IFACE"],
    run: show(
      (s, [x]) => render.configJson(render.interfaceBlock(s.model, s.model.running, iface(x), false).join("\n")),
      (s, [x]) => render.interfaceBlock(s.model, s.model.running, iface(x), false).join("\n") + "\n",
    ),
  },
  ...[["configure"], ["configure", "terminal"]].map((words): Definition => ({
    modes: [...EXEC, ...CONF],
    words,
    run: (s) => s.enter("config"),
  })),
  ...[["copy", "running-config", "startup-config"], ["write"], ["write", "memory"]].map((words): Definition => ({
    modes: EXEC,
    words,
    write: true,
    run: (s, _args, format) => {
      s.options.save();
      return format === "text"
        ? { output: "Copy completed successfully.\n" }
        : { messages: ["Copy completed successfully."] };
    },
  })),
  // leaving modes
  { modes: CONF, words: ["end"], run: (s) => s.enter("exec") },
  {
    modes: CONF,
    words: ["exit"],
    run: (s) => s.enter(s.mode === "config" ? "exec" : "config"),
  },
  // entering sub-modes (taken in every configuration mode, as EOS does)
  {
    modes: CONF,
    words: ["interface", "IFACE"],
    run: (s, [x]) => {
      s.enter("config-if");
      s.iface = iface(x);
      return {};
    },
  },
  {
    modes: CONF,
    words: ["vlan", "VLAN"],
    write: true,
    run: (s, [id]) => {
      const vid = id as number;
      if (!s.model.vlan(vid)) {
        if (s.model.vlanIds().length >= s.model.profile.maxVlans) throw failed("Maximum number of VLANs reached");
        s.options.change((cfg) => {
          cfg.vlans.set(vid, {
            name: render.defaultVlanName(vid),
            active: true,
            egress: new Set(),
            untagged: new Set(),
          });
          carryNewVlan(cfg, vid);
        });
      }
      s.enter("config-vlan");
      s.vlan = vid;
      return {};
    },
  },
  { modes: CONF, words: ["no", "vlan", "VLAN"], write: true, run: (s, [id]) => deleteVlan(s, id as number) },
  // interface configuration
  { modes: IF, words: ["shutdown"], write: true, run: (s) => setPort(s, { adminUp: false }) },
  { modes: IF, words: ["no", "shutdown"], write: true, run: (s) => setPort(s, { adminUp: true }) },
  {
    modes: IF,
    words: ["description", "REST"],
    write: true,
    run: (s, [text]) => {
      const value = text as string;
      if (value.length > s.model.profile.maxAliasLength)
        throw failed(`Description is longer than ${s.model.profile.maxAliasLength} characters`);
      return setPort(s, { alias: value });
    },
  },
  ...[
    ["no", "description"],
    ["default", "description"],
  ].map((words): Definition => ({ modes: IF, words, write: true, run: (s) => setPort(s, { alias: "" }) })),
  {
    modes: IF,
    words: ["switchport", "access", "vlan", "VLAN"],
    write: true,
    run: (s, [id]) => accessVlan(s, id as number),
  },
  { modes: IF, words: ["no", "switchport", "access", "vlan"], write: true, run: (s) => accessVlan(s, 1) },
  {
    modes: IF,
    words: ["switchport", "trunk", "native", "vlan", "VLAN"],
    write: true,
    run: (s, [id]) => nativeVlan(s, id as number),
  },
  { modes: IF, words: ["no", "switchport", "trunk", "native", "vlan"], write: true, run: (s) => nativeVlan(s, 1) },
  ...(["access", "trunk"] as const).map((mode): Definition => ({
    modes: IF,
    words: ["switchport", "mode", mode],
    write: true,
    run: (s) => portMode(s, mode),
  })),
  { modes: IF, words: ["no", "switchport", "mode"], write: true, run: (s) => portMode(s, "access") },
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
    write: true,
    run: (s, args) => allowedVlans(s, (old) => next(old, args)),
  })),
  {
    modes: IF,
    words: ["no", "switchport", "trunk", "allowed", "vlan"],
    write: true,
    run: (s) => allowedVlans(s, () => "all"),
  },
  ...(
    [
      [["poe", "disabled"], false],
      [["no", "poe", "disabled"], true],
    ] as const
  ).map(([words, on]): Definition => ({
    modes: IF,
    words: [...words],
    write: true,
    run: (s) => {
      if (!s.iface!.poe) throw failed("PoE is not supported on this interface");
      return setPort(s, { poeEnabled: on });
    },
  })),
  // VLAN configuration
  {
    modes: VLAN,
    words: ["name", "WORD"],
    write: true,
    run: (s, [name]) => renameVlan(s, name as string),
  },
  ...[
    ["no", "name"],
    ["default", "name"],
  ].map((words): Definition => ({
    modes: VLAN,
    words,
    write: true,
    run: (s) => renameVlan(s, render.defaultVlanName(s.vlan!)),
  })),
];

function without(from: Iterable<number>, list: number[]): Set<number> {
  const out = new Set(from);
  for (const v of list) out.delete(v);
  return out;
}

function setPort(s: EosSession, settings: Partial<{ adminUp: boolean; alias: string; poeEnabled: boolean }>): Result {
  const ifIndex = s.iface!.ifIndex;
  s.options.change((cfg) => Object.assign(cfg.ports.get(ifIndex)!, settings));
  return {};
}

function bridgePortOf(s: EosSession): number {
  const x = s.iface!;
  if (x.bridgePort === null || x.ipv4) throw failed(`Interface ${x.name} is not a switched port`);
  return x.bridgePort;
}

/** the model's port mode made what the configuration shows (a trunk by its memberships gets its settings) */
function modeSettled(s: EosSession, cfg: SwitchConfig, bp: number): void {
  const mode = render.eosPortMode(s.model, s.iface!, cfg);
  if (mode.trunk && !cfg.portModes.has(bp)) {
    cfg.switchport.set(bp, {
      access: 1,
      native: mode.native,
      allowed: new Set(mode.allowed === "all" ? [] : mode.allowed),
    });
    cfg.portModes.set(bp, "trunk");
  }
}

// lab rule (kept by every face): a port's untagged VLAN is a VLAN that exists
function vlanMustExist(s: EosSession, vid: number): void {
  if (!s.model.vlan(vid))
    throw failed(`VLAN ${vid} does not exist (the lab keeps untagged VLANs existing: create it first)`);
}

function accessVlan(s: EosSession, vid: number): Result {
  const bp = bridgePortOf(s);
  vlanMustExist(s, vid);
  s.options.change((cfg) => {
    modeSettled(s, cfg, bp);
    configureSwitchport(cfg, bp, { access: vid });
  });
  return {};
}

function nativeVlan(s: EosSession, vid: number): Result {
  const bp = bridgePortOf(s);
  vlanMustExist(s, vid);
  s.options.change((cfg) => {
    modeSettled(s, cfg, bp);
    configureSwitchport(cfg, bp, { native: vid });
  });
  return {};
}

function allowedVlans(s: EosSession, next: (old: ReadonlySet<number> | "all") => ReadonlySet<number> | "all"): Result {
  const bp = bridgePortOf(s);
  s.options.change((cfg) => {
    modeSettled(s, cfg, bp);
    const allowed = next(switchportOf(cfg, bp).allowed);
    const all = allowed === "all" || ALL_VLANS.every((v) => allowed.has(v));
    configureSwitchport(cfg, bp, { allowed: all ? "all" : allowed });
  });
  return {};
}

function portMode(s: EosSession, mode: "access" | "trunk"): Result {
  const bp = bridgePortOf(s);
  const before = render.eosPortMode(s.model, s.iface!);
  vlanMustExist(s, mode === "trunk" ? before.native : before.access);
  s.options.change((cfg) => {
    modeSettled(s, cfg, bp);
    setPortMode(cfg, bp, mode);
  });
  return {};
}

function deleteVlan(s: EosSession, vid: number): Result {
  if (vid === 1) throw failed("Default VLAN 1 may not be deleted");
  if (!s.model.vlan(vid)) return {};
  const users = s.model.interfaces.filter((i) => i.bridgePort !== null && s.model.pvid(i.bridgePort) === vid);
  // lab rule (kept by every face): a VLAN that is a port's untagged VLAN stays
  if (users.length > 0)
    throw failed(`VLAN ${vid} is the access or native VLAN of ${users.map((i) => i.name).join(", ")}; move them first`);
  s.options.change((cfg) => cfg.vlans.delete(vid));
  return {};
}

function renameVlan(s: EosSession, name: string): Result {
  if (name.length > s.model.profile.maxVlanNameLength)
    throw failed(`VLAN name is longer than ${s.model.profile.maxVlanNameLength} characters`);
  const vid = s.vlan!;
  s.options.change((cfg) => {
    const v = cfg.vlans.get(vid);
    if (v) v.name = name;
  });
  return {};
}

/** An interface by the names EOS takes: "Ethernet5", "ethernet 5", "Et5" (a type prefix of two letters or more). */
export function findInterface(model: VirtualSwitch, text: string): LabInterface | null {
  const m = /^([A-Za-z-]+)\s*(\d[\d/.]*)$/.exec(text.trim());
  if (!m) return null;
  const [, type, number] = m;
  for (const i of model.interfaces) {
    const own = /^([A-Za-z-]+)(\d[\d/.]*)$/.exec(i.name);
    if (!own || own[2] !== number) continue;
    const full = own[1].toLowerCase();
    const typed = type.toLowerCase();
    if (typed === full || (typed.length >= 2 && full.startsWith(typed))) return i;
  }
  return null;
}

type Attempt = { ok: { def: Definition; args: Arg[] } } | { incomplete: number } | { failedAt: number };

/** One runCmds request's command-line state. */
export class EosSession {
  mode: Mode = "exec";
  iface: LabInterface | null = null;
  vlan: number | null = null;

  constructor(readonly options: SessionOptions) {}

  get model(): VirtualSwitch {
    return this.options.model;
  }

  enter(mode: Mode): Result {
    this.mode = mode;
    if (mode !== "config-if") this.iface = null;
    if (mode !== "config-vlan") this.vlan = null;
    return {};
  }

  /** Whether a command line is a configuration change (for the face's write faults); unknown lines are not. */
  isWrite(line: string): boolean {
    try {
      const found = this.match(line);
      return "ok" in found && found.ok.def.write === true;
    } catch {
      return false;
    }
  }

  /** Runs one command; throws EosCommandError as EOS would fail it. */
  run(line: string, format: Format, input?: string): Result {
    const found = this.match(line);
    if ("ok" in found) {
      const { def, args } = found.ok;
      if (def.words[0] === "enable" && this.options.enableSecret !== "" && input !== this.options.enableSecret)
        throw new EosCommandError(1005, "could not run command", ["Bad secret"]);
      const result = def.run(this, args, format);
      return format === "text" && !("output" in result) ? { output: "" } : result;
    }
    if ("incomplete" in found)
      throw new EosCommandError(1002, "invalid command", [`Incomplete command (at token ${found.incomplete}: '<cr>')`]);
    const tokens = tokenize(line);
    const index = Math.max(
      0,
      tokens.findIndex((t) => t.at >= found.failedAt),
    );
    throw new EosCommandError(1002, "invalid command", [
      `Invalid input (at token ${index}: '${tokens[index]?.text ?? ""}')`,
    ]);
  }

  private match(line: string): Attempt {
    const tokens = tokenize(line);
    if (tokens.length === 0) return { failedAt: 0 };
    let best: { def: Definition; args: Arg[] } | null = null;
    let incomplete: number | null = null;
    let furthest = 0;
    for (const def of definitions) {
      if (!def.modes.includes(this.mode)) continue;
      const a = this.attempt(def, tokens, line);
      if ("ok" in a) {
        // the longer definition wins ("show interfaces status" over "show interfaces IFACE")
        if (!best || a.ok.def.words.length > best.def.words.length) best = a.ok;
      } else if ("incomplete" in a) incomplete = a.incomplete;
      else furthest = Math.max(furthest, a.failedAt);
    }
    if (best) return { ok: best };
    if (incomplete !== null) return { incomplete };
    return { failedAt: furthest };
  }

  /** EOS takes keywords whole, or shortened when the request asks for autoComplete */
  private attempt(def: Definition, tokens: Token[], line: string): Attempt {
    const m = matchWords<LabInterface>(def.words, tokens, line, {
      findInterface: (text) => findInterface(this.model, text),
      keyword: (word, typed) => typed === word || (this.options.autoComplete === true && word.startsWith(typed)),
      unknownInterface: (token, text) => {
        if (/^[A-Za-z-]+\s*\d/.test(text.slice(token.at)) && isInterfaceType(token.text))
          throw failed("Interface does not exist");
      },
    });
    return "ok" in m ? { ok: { def, args: m.ok.args } } : m;
  }
}

const INTERFACE_TYPES = ["ethernet", "port-channel", "vlan", "management", "loopback"];

/** a word naming an interface type (so "interface Ethernet99" is a missing interface, not bad input) */
function isInterfaceType(word: string): boolean {
  const typed = word.toLowerCase().replace(/\d.*$/, "");
  return typed.length >= 2 && INTERFACE_TYPES.some((t) => t.startsWith(typed));
}
