/**
 * One NETCONF session over SSH (RFC 6241/6242): the `netconf` subsystem on a pinned SSH
 * connection (drivers/ssh/connection.ts), the hello exchange (base:1.1 and chunked
 * framing when the device offers it, else base:1.0 and `]]>]]>`), and RPCs matched to
 * their replies by message-id. A reply that carries an `rpc-error` of severity error is
 * DeviceRefused with the device's own error-message; no reply in time, a broken session
 * or a reply that cannot be read is DeviceUnreachable. Several RPCs may be in flight
 * (NETCONF pipelining), so a read can send its requests at once.
 */
import type { ClientChannel } from "ssh2";
import { DeviceRefused, DeviceUnreachable } from "../../model/failures";
import type { SshTarget } from "../../model/targets";
import { childOf, childText, descendantsOf, parseXml, XmlSyntaxError, type XmlElement } from "../../model/xml";
import { RequestCounters } from "../request-counters";
import { openSshConnection, type SshConnection } from "../ssh/connection";
import { encodeFrame, FrameDecoder, FramingError, type Framing } from "./framing";

export const NETCONF_NS = "urn:ietf:params:xml:ns:netconf:base:1.0";
export const BASE_10 = "urn:ietf:params:netconf:base:1.0";
export const BASE_11 = "urn:ietf:params:netconf:base:1.1";

/** the largest reply accepted (a Junos switch's full interface list is a few MB) */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export interface NetconfOptions {
  name?: string;
  /** offer base:1.1 (chunked framing); default true */
  offerBase11?: boolean;
  maxMessageBytes?: number;
  /** where the RPCs and round trips are counted (the driver's own, read by the service) */
  counters?: RequestCounters;
}

interface Pending {
  resolve(reply: XmlElement): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
  what: string;
}

/** The failure of one RPC: the device's words, kept apart for callers that look at them. */
export class RpcRefused extends DeviceRefused {
  constructor(
    where: string,
    readonly rpc: string,
    readonly errors: string[],
  ) {
    super(`${where} refused ${rpc}: ${errors.join("; ")}`);
  }
}

export class NetconfSession {
  private readonly pending = new Map<string, Pending>();
  private nextId = 1;
  private broken: Error | null = null;
  private framing: Framing = "eom";
  /** RPCs sent and round trips (the hello exchange is not counted) */
  counters = new RequestCounters();

  private constructor(
    private readonly connection: SshConnection,
    private readonly channel: ClientChannel,
    private readonly target: SshTarget,
    /** the capabilities the device offered in its hello */
    readonly capabilities: readonly string[],
    readonly sessionId: string,
  ) {}

  get where(): string {
    return this.connection.where;
  }

  get hostKey(): string {
    return this.connection.hostKey;
  }

  get chunked(): boolean {
    return this.framing === "chunked";
  }

  /** the session can take more RPCs */
  get usable(): boolean {
    return this.broken === null && !this.connection.closed;
  }

  static async open(target: SshTarget, options: NetconfOptions = {}): Promise<NetconfSession> {
    const connection = await openSshConnection(target, { name: options.name });
    const where = connection.where;
    const decoder = new FrameDecoder(options.maxMessageBytes ?? MAX_MESSAGE_BYTES);
    try {
      const channel = await new Promise<ClientChannel>((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new DeviceUnreachable(
                `${where} did not open the NETCONF subsystem within ${target.command_timeout_ms} ms`,
              ),
            ),
          target.command_timeout_ms,
        );
        connection.client.subsys("netconf", (err, ch) => {
          clearTimeout(timer);
          if (err) reject(new DeviceUnreachable(`${where} refused the NETCONF subsystem: ${err.message}`));
          else resolve(ch);
        });
      });
      const offer11 = options.offerBase11 ?? true;
      // the device's hello: it speaks first or at once after ours; ours goes out right away
      const helloText = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          done();
          reject(new DeviceUnreachable(`No NETCONF hello from ${where} within ${target.command_timeout_ms} ms`));
        }, target.command_timeout_ms);
        const onData = (data: Buffer) => {
          try {
            decoder.push(data);
            const message = decoder.next();
            if (message !== null) {
              done();
              resolve(message);
            }
          } catch (e) {
            done();
            reject(new DeviceUnreachable(`${where} sent an unreadable NETCONF hello: ${(e as Error).message}`));
          }
        };
        const onClose = () => {
          done();
          reject(new DeviceUnreachable(`${where} closed the NETCONF session before its hello`));
        };
        const done = () => {
          clearTimeout(timer);
          channel.off("data", onData);
          channel.off("close", onClose);
        };
        channel.on("data", onData);
        channel.on("close", onClose);
        const caps = [BASE_10, ...(offer11 ? [BASE_11] : [])];
        channel.write(
          encodeFrame(
            `<?xml version="1.0" encoding="UTF-8"?><hello xmlns="${NETCONF_NS}"><capabilities>${caps
              .map((c) => `<capability>${c}</capability>`)
              .join("")}</capabilities></hello>`,
            "eom",
          ),
        );
      });
      let hello: XmlElement;
      try {
        hello = parseXml(helloText);
      } catch (e) {
        throw new DeviceUnreachable(`${where} sent an unreadable NETCONF hello: ${(e as Error).message}`);
      }
      if (hello.name !== "hello") throw new DeviceUnreachable(`${where} did not start with a NETCONF hello`);
      const capabilities = (childOf(hello, "capabilities")?.children ?? []).map((c) => c.text.trim());
      if (!capabilities.includes(BASE_10) && !capabilities.includes(BASE_11))
        throw new DeviceUnreachable(`${where} offers neither NETCONF base:1.0 nor base:1.1`);
      const session = new NetconfSession(connection, channel, target, capabilities, childText(hello, "session-id"));
      if (options.counters) session.counters = options.counters;
      if (offer11 && capabilities.includes(BASE_11)) {
        session.framing = "chunked";
        decoder.setFraming("chunked");
      }
      session.listen(decoder);
      return session;
    } catch (e) {
      connection.close();
      throw e;
    }
  }

  private listen(decoder: FrameDecoder): void {
    this.channel.on("data", (data: Buffer) => {
      if (this.broken) return;
      try {
        decoder.push(data);
        for (let message = decoder.next(); message !== null; message = decoder.next()) this.deliver(message);
      } catch (e) {
        const why = e instanceof FramingError || e instanceof XmlSyntaxError ? e.message : String(e);
        this.fail(new DeviceUnreachable(`${this.where} sent an unreadable NETCONF message (${why})`));
      }
    });
    this.channel.on("close", () => this.fail(new DeviceUnreachable(`${this.where} closed the NETCONF session`)));
    this.connection.onClose(() => this.fail(new DeviceUnreachable(`${this.where}: the SSH connection closed`)));
  }

  private deliver(message: string): void {
    const reply = parseXml(message);
    if (reply.name !== "rpc-reply") return; // notifications and the like are not asked for
    const id = reply.attrs["message-id"];
    const waiting = id === undefined ? undefined : this.pending.get(id);
    if (!waiting) {
      // a reply to nothing asked: the session's state is not known any more
      this.fail(
        new DeviceUnreachable(
          `${this.where} answered a NETCONF request that was not sent (message-id ${id ?? "missing"})`,
        ),
      );
      return;
    }
    this.pending.delete(id);
    clearTimeout(waiting.timer);
    const errors = descendantsOf(reply, "rpc-error").filter(
      (e) => (childText(e, "error-severity") || "error") !== "warning",
    );
    if (errors.length > 0) {
      waiting.reject(
        new RpcRefused(
          this.where,
          waiting.what,
          errors.map((e) => {
            const text = childText(e, "error-message") || childText(e, "error-tag") || "rpc-error";
            const path = childText(e, "error-path");
            const bad = childText(childOf(e, "error-info"), "bad-element");
            return [path, text, bad ? `(${bad})` : ""].filter(Boolean).join(" ");
          }),
        ),
      );
    } else waiting.resolve(reply);
  }

  private fail(error: Error): void {
    if (this.broken) return;
    this.broken = error;
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      clearTimeout(p.timer);
      p.reject(new DeviceUnreachable(`${error.message}; no answer to ${p.what}`));
    }
    this.connection.close();
  }

  /**
   * Sends one RPC (the operation's XML, already escaped) and resolves with the whole
   * rpc-reply. `what` names it in messages (the operation's name by default).
   */
  rpc(operation: string, options: { timeoutMs?: number; what?: string } = {}): Promise<XmlElement> {
    const what = options.what ?? /^<([\w:-]+)/.exec(operation)?.[1] ?? "an RPC";
    if (this.broken) return Promise.reject(new DeviceUnreachable(`${this.broken.message}; ${what} was not sent`));
    const id = String(this.nextId++);
    const timeout = options.timeoutMs ?? this.target.command_timeout_ms;
    const ended = this.counters.begin();
    return new Promise<XmlElement>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new DeviceUnreachable(`No answer from ${this.where} to ${what} within ${timeout} ms`));
        // a late reply would belong to nothing: the session is not used again
        this.fail(new DeviceUnreachable(`${this.where} did not answer ${what} in time`));
      }, timeout);
      this.pending.set(id, { resolve, reject, timer, what });
      this.channel.write(encodeFrame(`<rpc xmlns="${NETCONF_NS}" message-id="${id}">${operation}</rpc>`, this.framing));
    }).finally(ended);
  }

  /** Ends the session politely (close-session, briefly awaited), then the connection. */
  async close(): Promise<void> {
    if (this.usable) {
      try {
        await this.rpc("<close-session/>", { timeoutMs: Math.min(1000, this.target.command_timeout_ms) });
      } catch {
        // the connection ends anyway
      }
    }
    this.broken ??= new DeviceUnreachable(`${this.where}: the NETCONF session is closed`);
    this.connection.close();
  }

  /** Drops the connection without a word (tests: a driver that lost its session). */
  abandon(): void {
    this.fail(new DeviceUnreachable(`${this.where}: the NETCONF session was abandoned`));
  }
}
