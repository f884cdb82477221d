/**
 * The NETCONF face of a lab switch: Junos NETCONF over the lab's SSH server (the
 * `netconf` subsystem, lab/ssh/server.ts), on the same VirtualSwitch its SNMP and IOS
 * faces serve, so a change committed here is seen there at once. It speaks as Juniper's
 * NETCONF guide documents, so PyEZ and ncclient work against it: the server hello at
 * once, `]]>]]>` framing or chunks when both sides offer base:1.1, replies in the NETCONF
 * namespace echoing the message-id, Junos operational RPCs (renders in render.ts), and
 * the configuration RPCs: lock / unlock, load (set statements, rollback N), commit
 * (check, confirmed with a confirm-timeout that rolls back by itself), discard-changes,
 * close-session. Faults: no answer (from now or after n answers), refused writes and
 * refused RPCs (an rpc-error with a message), writes answered but not applied, refused
 * logins.
 */
import type { ServerChannel } from "ssh2";
import { cloneConfig, type SwitchConfig } from "../config";
import type { VirtualSwitch } from "../model";
import type { SshTarget } from "../../model/targets";
import { childOf, childText, escapeXml, parseXml, type XmlElement } from "../../model/xml";
import { startLabSshFace } from "../ssh/server";
import { frame, LabFrameReader, type LabFraming } from "./framing";
import {
  applyStatement,
  cloneJunos,
  junosFromModel,
  junosToModel,
  sameJunos,
  StatementError,
  type JunosConfig,
  type SwitchStyle,
} from "./junos-config";
import * as render from "./render";

const NS = "urn:ietf:params:xml:ns:netconf:base:1.0";
const JUNOS_NS = "http://xml.juniper.net/junos/18.4R2/junos";
const BASE_10 = "urn:ietf:params:netconf:base:1.0";
const BASE_11 = "urn:ietf:params:netconf:base:1.1";
const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
const HISTORY = 50;

export interface LabNetconfFaceOptions {
  /** TCP port on 127.0.0.1; 0 or absent picks a free one */
  port?: number;
  /** delay before each RPC's answer */
  latencyMs?: number;
  /** default "admin" */
  username?: string;
  /** default "lab-netconf-password" */
  password?: string;
  /** "els" (default): the ELS statements and answers; "legacy": the older EX ones (port-mode, vlan-information) */
  style?: SwitchStyle;
  /** offer base:1.1 (chunked framing after the hello); default true */
  base11?: boolean;
  /** how long one minute of a confirm-timeout lasts here, in ms (tests shorten it); default 60000 */
  confirmMinuteMs?: number;
}

export class LabNetconfFaults {
  /** delay before each answer is sent (answers keep their order) */
  latencyMs = 0;
  /** RPCs get no answer (the session stays open) */
  silent = false;
  /** load-configuration answered with an rpc-error of this message, nothing loaded; false: off */
  refuseWrites: string | false = false;
  /** commits answered as usual but the running configuration does not change */
  lieOnWrites = false;
  /** every SSH login is refused */
  refuseLogins = false;
  private answersLeft: number | null = null;
  private readonly refusals: Array<{ rpc: string; message: string }> = [];

  constructor(private readonly defaultLatencyMs = 0) {
    this.latencyMs = defaultLatencyMs;
  }

  /** answer n more RPCs, then none */
  silentAfter(n: number): void {
    if (!Number.isInteger(n) || n < 0) throw new RangeError("silentAfter needs a count >= 0");
    this.answersLeft = n;
  }

  /** answer every RPC of this name (e.g. "commit-configuration") with an rpc-error of `message` */
  refuseRpc(rpc: string, message: string): void {
    this.refusals.push({ rpc, message });
  }

  /** whether this RPC is answered (counts it) */
  answers(): boolean {
    if (this.silent) return false;
    if (this.answersLeft === null) return true;
    if (this.answersLeft <= 0) return false;
    this.answersLeft--;
    return true;
  }

  refusalOf(rpc: string): string | null {
    return this.refusals.find((r) => r.rpc === rpc)?.message ?? null;
  }

  reset(): void {
    this.latencyMs = this.defaultLatencyMs;
    this.silent = false;
    this.refuseWrites = false;
    this.lieOnWrites = false;
    this.refuseLogins = false;
    this.answersLeft = null;
    this.refusals.length = 0;
  }
}

export interface LabNetconfCounters {
  /** NETCONF sessions opened (logins that asked for the subsystem) */
  sessions: number;
  /** RPC operation names received, latest last (at most 1000) */
  rpcs: string[];
  commits: number;
  /** confirmed commits rolled back because no confirming commit came in time */
  rollbacks: number;
}

export interface LabNetconfFace {
  host: "127.0.0.1";
  port: number;
  username: string;
  password: string;
  /** "SHA256:..." of the SSH host key */
  fingerprint: string;
  faults: LabNetconfFaults;
  counters: LabNetconfCounters;
  /** the candidate's state: a lock held, changes not committed, a confirmed commit waiting */
  configState(): { locked: boolean; uncommitted: boolean; confirmPending: boolean };
  /** a target for the junos_netconf driver (connector 2); `pin` pins this face's host key */
  sshTarget(opts?: { pin?: boolean }): SshTarget;
  stop(): Promise<void>;
}

class RpcError extends Error {
  constructor(
    message: string,
    readonly path?: string,
    readonly element?: string,
    readonly tag = "operation-failed",
  ) {
    super(message);
  }
}

/** The one configuration database of the switch, shared by its sessions. */
class Datastore {
  candidate: JunosConfig | null = null;
  lockedBy: Session | null = null;
  history: SwitchConfig[] = [];
  confirm: { timer: NodeJS.Timeout; previous: SwitchConfig } | null = null;

  constructor(
    private readonly model: VirtualSwitch,
    private readonly faults: LabNetconfFaults,
    private readonly counters: LabNetconfCounters,
    private readonly minuteMs: number,
  ) {}

  committed(): JunosConfig {
    return junosFromModel(this.model, this.model.running);
  }

  uncommitted(): boolean {
    return this.candidate !== null && !sameJunos(this.candidate, this.committed());
  }

  private guard(session: Session): void {
    if (this.lockedBy && this.lockedBy !== session)
      throw new RpcError(
        `configuration database locked by: ${this.lockedBy.username} terminal (pid ${this.lockedBy.id}) exclusive`,
        undefined,
        undefined,
        "lock-denied",
      );
  }

  lock(session: Session): void {
    this.guard(session);
    if (this.lockedBy === session) return;
    if (this.uncommitted()) throw new RpcError("configuration database modified", undefined, undefined, "lock-denied");
    this.candidate = null;
    this.lockedBy = session;
  }

  /** the lock's end: uncommitted changes go with it */
  unlock(session: Session): void {
    if (this.lockedBy !== session) throw new RpcError("configuration database is not locked by this session");
    this.lockedBy = null;
    this.candidate = null;
  }

  load(session: Session, text: string, style: SwitchStyle): number {
    this.guard(session);
    const work = cloneJunos(this.candidate ?? this.committed());
    const errors: RpcError[] = [];
    for (const line of text.split(/\r?\n/).slice(0, 100_000)) {
      if (!line.trim()) continue;
      try {
        applyStatement(work, line, style);
      } catch (e) {
        if (!(e instanceof StatementError)) throw e;
        errors.push(new RpcError(e.message, e.path, e.element));
      }
    }
    if (errors.length > 0) throw new LoadErrors(errors);
    this.candidate = work;
    return 0;
  }

  rollback(session: Session, n: number): void {
    this.guard(session);
    if (!Number.isInteger(n) || n < 0 || n > HISTORY) throw new RpcError(`rollback ${n} is out of range`);
    if (n === 0) {
      this.candidate = null;
      return;
    }
    const previous = this.history[n - 1];
    if (!previous) throw new RpcError(`rollback ${n} does not exist`);
    this.candidate = junosFromModel(this.model, previous);
  }

  discard(session: Session): void {
    this.guard(session);
    this.candidate = null;
  }

  commit(session: Session, opts: { check: boolean; confirmMinutes: number | null }): void {
    this.guard(session);
    const { config, errors } = this.candidate
      ? junosToModel(this.model, this.candidate, this.model.running)
      : { config: cloneConfig(this.model.running), errors: [] };
    if (errors.length > 0) throw new LoadErrors(errors.map((e) => new RpcError(e)));
    if (opts.check) return;
    this.counters.commits++;
    const before = cloneConfig(this.model.running);
    this.history.unshift(before);
    if (this.history.length > HISTORY) this.history.length = HISTORY;
    if (!this.faults.lieOnWrites) this.model.commit(config);
    this.candidate = null;
    if (opts.confirmMinutes !== null) {
      const previous = this.confirm?.previous ?? before;
      if (this.confirm) clearTimeout(this.confirm.timer);
      const timer = setTimeout(() => this.expire(), opts.confirmMinutes * this.minuteMs);
      timer.unref?.();
      this.confirm = { timer, previous };
    } else if (this.confirm) {
      clearTimeout(this.confirm.timer);
      this.confirm = null;
    }
  }

  /** a confirmed commit not confirmed in time: the switch goes back by itself */
  private expire(): void {
    if (!this.confirm) return;
    const { previous } = this.confirm;
    this.confirm = null;
    this.history.unshift(cloneConfig(this.model.running));
    if (this.history.length > HISTORY) this.history.length = HISTORY;
    this.model.commit(cloneConfig(previous));
    this.counters.rollbacks++;
  }

  /** a session ended: its lock and uncommitted changes go */
  ended(session: Session): void {
    if (this.lockedBy === session) {
      this.lockedBy = null;
      this.candidate = null;
    }
  }

  stop(): void {
    if (this.confirm) clearTimeout(this.confirm.timer);
    this.confirm = null;
  }
}

class LoadErrors extends Error {
  constructor(readonly errors: RpcError[]) {
    super(errors.map((e) => e.message).join("; "));
  }
}

let nextSessionId = 4242;

class Session {
  readonly id = nextSessionId++;
  private readonly reader = new LabFrameReader(MAX_MESSAGE_BYTES);
  private framing: LabFraming = "eom";
  private hello = false;
  private ended = false;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly username: string,
    private readonly channel: ServerChannel,
    private readonly endConnection: () => void,
    private readonly ctx: {
      model: VirtualSwitch;
      store: Datastore;
      faults: LabNetconfFaults;
      counters: LabNetconfCounters;
      style: SwitchStyle;
      base11: boolean;
    },
  ) {
    const caps = [
      BASE_10,
      ...(ctx.base11 ? [BASE_11] : []),
      "urn:ietf:params:netconf:capability:candidate:1.0",
      "urn:ietf:params:netconf:capability:confirmed-commit:1.0",
      "urn:ietf:params:netconf:capability:validate:1.0",
      "http://xml.juniper.net/netconf/junos/1.0",
      "http://xml.juniper.net/dmi/system/1.0",
    ];
    this.send(
      `<!-- No zombies were killed during the creation of this user interface -->\n<!-- user ${escapeXml(username)}, class super-user -->\n<hello xmlns="${NS}"><capabilities>${caps.map((c) => `<capability>${c}</capability>`).join("")}</capabilities><session-id>${this.id}</session-id></hello>`,
    );
    channel.on("data", (data: Buffer) => this.input(data));
    channel.on("close", () => this.end());
    channel.on("error", () => this.end());
  }

  private send(xml: string): void {
    if (!this.ended && this.channel.writable) this.channel.write(frame(xml, this.framing));
  }

  private input(data: Buffer): void {
    if (this.ended) return;
    if (!this.reader.add(data)) return this.close();
    try {
      for (let m = this.reader.take(); m !== null; m = this.reader.take()) this.message(m);
    } catch {
      this.close();
    }
  }

  private message(text: string): void {
    let doc: XmlElement;
    try {
      doc = parseXml(text, { maxDepth: 64, maxElements: 200_000 });
    } catch {
      if (!this.hello) return this.close();
      this.send(
        this.reply(
          undefined,
          errorXml(new RpcError("syntax error: malformed XML", undefined, undefined, "malformed-message")),
        ),
      );
      return;
    }
    if (!this.hello) {
      if (doc.name !== "hello") return this.close();
      this.hello = true;
      const theirs = (childOf(doc, "capabilities")?.children ?? []).map((c) => c.text.trim());
      if (this.ctx.base11 && theirs.includes(BASE_11)) {
        this.framing = "chunked";
        this.reader.framing = "chunked";
      }
      return;
    }
    if (doc.name !== "rpc") return;
    const id = doc.attrs["message-id"];
    const op = doc.children[0];
    // one RPC after the other, as a Junos session answers them
    this.queue = this.queue.then(() => this.answer(id, op));
  }

  private async answer(id: string | undefined, op: XmlElement | undefined): Promise<void> {
    if (this.ended) return;
    const name = op?.name ?? "";
    this.ctx.counters.rpcs.push(name);
    if (this.ctx.counters.rpcs.length > 1000) this.ctx.counters.rpcs.shift();
    if (!this.ctx.faults.answers()) return;
    let body: string;
    try {
      const refusal = this.ctx.faults.refusalOf(name);
      if (refusal) throw new RpcError(refusal);
      if (!op) throw new RpcError("syntax error: an rpc without an operation", undefined, "rpc");
      body = this.run(op);
    } catch (e) {
      if (e instanceof LoadErrors) {
        const results =
          name === "load-configuration"
            ? `<load-configuration-results>${e.errors.map(errorXml).join("")}<load-error-count>${e.errors.length}</load-error-count></load-configuration-results>`
            : "";
        body = e.errors.map(errorXml).join("") + results;
      } else if (e instanceof RpcError) body = errorXml(e);
      else throw e;
    }
    const reply = this.reply(id, body);
    const delay = this.ctx.faults.latencyMs;
    // delayed without holding the queue: the next RPC is worked on meanwhile, as a switch
    // behind a slow link would, and equal delays keep the answers in order
    if (delay > 0)
      setTimeout(() => {
        if (this.ended) return;
        this.send(reply);
        if (name === "close-session") this.close();
      }, delay);
    else {
      this.send(reply);
      if (name === "close-session") this.close();
    }
  }

  private reply(id: string | undefined, body: string): string {
    const mid = id === undefined ? "" : ` message-id="${escapeXml(id)}"`;
    return `<rpc-reply xmlns="${NS}" xmlns:junos="${JUNOS_NS}"${mid}>${body}</rpc-reply>`;
  }

  private run(op: XmlElement): string {
    const { model, store, faults, style } = this.ctx;
    const ok = "<ok/>";
    const has = (child: string) => childOf(op, child) !== undefined;
    switch (op.name) {
      case "get-software-information":
        return render.softwareInformation(model);
      case "command": {
        if (/^show version\b/.test(op.text.trim())) return render.softwareInformation(model);
        throw new RpcError("syntax error", undefined, op.text.trim().split(/\s+/)[0]);
      }
      case "get-chassis-inventory":
        return render.chassisInventory(model);
      case "get-route-engine-information":
        return render.routeEngineInformation(model);
      case "get-interface-information": {
        if (childText(op, "routing-instance"))
          throw new RpcError("routing instance not found", undefined, "routing-instance");
        const name = childText(op, "interface-name") || undefined;
        const answer = render.interfaceInformation(model, { terse: has("terse"), name });
        if (answer === null) throw new RpcError(`device ${name} not found`, undefined, name);
        return answer;
      }
      case "get-vlan-information":
        return render.vlanInformation(model, style);
      case "get-ethernet-switching-table-information":
        return render.switchingTable(model, style, has("summary"));
      case "get-lldp-neighbors-information":
        return render.lldpNeighbors(model);
      case "get-lldp-interface-neighbors": {
        const name = childText(op, "interface-device");
        if (!model.interfaces.some((i) => i.name === name))
          throw new RpcError(`interface ${name} not found`, undefined, name);
        return render.lldpNeighbors(model, name);
      }
      case "get-poe-interface-information": {
        const answer = render.poeInterfaceInformation(model, childText(op, "interface-name") || undefined);
        if (answer === null) throw new RpcError("PoE is not supported on this interface or platform");
        return answer;
      }
      case "get-poe-controller-information": {
        const answer = render.poeControllerInformation(model);
        if (answer === null) throw new RpcError("PoE is not supported on this platform");
        return answer;
      }
      case "get-arp-table-information":
        return render.arpTable(model);
      case "get-configuration":
        return `<configuration junos:commit-user="${escapeXml(this.username)}"><system>${`<host-name>${escapeXml(model.system.sysName)}</host-name>`}</system></configuration>`;
      case "lock-configuration":
        store.lock(this);
        return ok;
      case "lock":
        this.target(op);
        store.lock(this);
        return ok;
      case "unlock-configuration":
        store.unlock(this);
        return ok;
      case "unlock":
        this.target(op);
        store.unlock(this);
        return ok;
      case "load-configuration": {
        if (op.attrs.rollback !== undefined) {
          store.rollback(this, Number(op.attrs.rollback));
          return `<load-configuration-results><load-success/></load-configuration-results>`;
        }
        if (faults.refuseWrites) throw new RpcError(faults.refuseWrites);
        const set = childOf(op, "configuration-set");
        if (op.attrs.action !== "set" || !set)
          throw new RpcError(
            'the lab switch loads set statements only (action="set", <configuration-set>)',
            undefined,
            "load-configuration",
          );
        store.load(this, set.text, style);
        return `<load-configuration-results><load-success/></load-configuration-results>`;
      }
      case "discard-changes":
        store.discard(this);
        return ok;
      case "commit-configuration":
      case "commit": {
        const confirmed = has("confirmed");
        const timeout = childText(op, "confirm-timeout");
        let minutes: number | null = null;
        if (confirmed) {
          // commit-configuration counts minutes (default 10), NETCONF <commit> seconds (default 600)
          const n = timeout === "" ? (op.name === "commit" ? 600 : 10) : Number(timeout);
          if (!Number.isInteger(n) || n < 1 || n > 65535)
            throw new RpcError(`confirm-timeout ${timeout} is out of range`, undefined, "confirm-timeout");
          minutes = op.name === "commit" ? n / 60 : n;
        }
        store.commit(this, { check: has("check"), confirmMinutes: minutes });
        if (op.name === "commit" || has("check")) return ok;
        const output = confirmed
          ? `<output>commit confirmed will be automatically rolled back in ${minutes} minutes unless confirmed</output>`
          : "";
        return `<commit-results><routing-engine junos:style="normal"><name>re0</name>${output}<commit-success/></routing-engine></commit-results>`;
      }
      case "close-session":
        return ok;
      default:
        throw new RpcError("syntax error", undefined, op.name, "operation-not-supported");
    }
  }

  private target(op: XmlElement): void {
    const target = childOf(op, "target");
    if (!childOf(target, "candidate"))
      throw new RpcError("only the candidate configuration can be locked here", undefined, "target");
  }

  private close(): void {
    this.end();
    this.endConnection();
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    this.ctx.store.ended(this);
  }
}

function errorXml(e: RpcError): string {
  return (
    `<rpc-error><error-type>${e.tag === "malformed-message" ? "rpc" : "protocol"}</error-type><error-tag>${e.tag}</error-tag><error-severity>error</error-severity>` +
    `${e.path ? `<error-path>${escapeXml(e.path)}</error-path>` : ""}<error-message>${escapeXml(e.message)}</error-message>` +
    `${e.element ? `<error-info><bad-element>${escapeXml(e.element)}</bad-element></error-info>` : ""}</rpc-error>`
  );
}

/** Starts the NETCONF face of `lab` (a started lab switch, or its model) on 127.0.0.1. */
export async function startLabNetconfFace(
  lab: { model: VirtualSwitch } | VirtualSwitch,
  options: LabNetconfFaceOptions = {},
): Promise<LabNetconfFace> {
  const model = "model" in lab ? lab.model : lab;
  const username = options.username ?? "admin";
  const password = options.password ?? "lab-netconf-password";
  const faults = new LabNetconfFaults(options.latencyMs ?? 0);
  const counters: LabNetconfCounters = { sessions: 0, rpcs: [], commits: 0, rollbacks: 0 };
  const store = new Datastore(model, faults, counters, options.confirmMinuteMs ?? 60_000);
  const ctx = { model, store, faults, counters, style: options.style ?? "els", base11: options.base11 ?? true };
  const ssh = await startLabSshFace(model, {
    port: options.port,
    username,
    password,
    loginAllowed: () => !faults.refuseLogins,
    subsystems: {
      netconf: (channel, end) => {
        counters.sessions++;
        new Session(username, channel, end, ctx);
      },
    },
  });
  return {
    host: "127.0.0.1",
    port: ssh.port,
    username,
    password,
    fingerprint: ssh.hostKeyFingerprint,
    faults,
    counters,
    configState: () => ({
      locked: store.lockedBy !== null,
      uncommitted: store.uncommitted(),
      confirmPending: store.confirm !== null,
    }),
    sshTarget: (o = {}) => ({
      host: "127.0.0.1",
      port: ssh.port,
      username,
      password,
      ...(o.pin ? { host_key_fingerprint: ssh.hostKeyFingerprint } : {}),
      connect_timeout_ms: 3000,
      command_timeout_ms: 3000,
    }),
    stop: async () => {
      store.stop();
      await ssh.stop();
    },
  };
}
