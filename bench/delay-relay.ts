/**
 * A UDP relay on 127.0.0.1 in front of an agent, holding every answer back a fixed time
 * before passing it on: the latency of a switch a few hops away, added in user space
 * (the bench's kernels may have no netem qdisc). It counts the datagrams each way. Every
 * manager socket gets an upstream socket of its own, so answers reach the socket that
 * asked; the upstream sockets are bounded (the oldest is closed when there are too many).
 */
import dgram from "node:dgram";

export interface DelayRelayTraffic {
  /** datagrams from managers towards the agent */
  requests: number;
  /** datagrams from the agent passed back */
  answers: number;
  /** requests by manager socket ("address:port"): concurrent walks of one tool each have their own */
  bySocket: Map<string, number>;
}

export interface DelayRelay {
  port: number;
  traffic: DelayRelayTraffic;
  reset(): void;
  stop(): Promise<void>;
}

export interface DelayRelayOptions {
  /** the agent */
  host: string;
  port: number;
  /** how long each answer is held back, ms */
  delayMs: number;
  /** upstream sockets kept open at most (default 256) */
  maxUpstreams?: number;
}

export async function startDelayRelay(options: DelayRelayOptions): Promise<DelayRelay> {
  const maxUpstreams = options.maxUpstreams ?? 256;
  const front = dgram.createSocket("udp4");
  const upstreams = new Map<string, dgram.Socket>();
  const held = new Set<NodeJS.Timeout>();
  const traffic: DelayRelayTraffic = { requests: 0, answers: 0, bySocket: new Map() };
  let stopped = false;

  const closeQuietly = (s: dgram.Socket) => {
    try {
      s.close();
    } catch {
      // already closed
    }
  };

  const upstreamFor = (address: string, port: number): dgram.Socket => {
    const key = `${address}:${port}`;
    const known = upstreams.get(key);
    if (known) return known;
    if (upstreams.size >= maxUpstreams) {
      const [oldestKey, oldest] = upstreams.entries().next().value as [string, dgram.Socket];
      upstreams.delete(oldestKey);
      closeQuietly(oldest);
    }
    const socket = dgram.createSocket("udp4");
    socket.on("message", (answer) => {
      const timer = setTimeout(() => {
        held.delete(timer);
        if (stopped) return;
        traffic.answers++;
        front.send(answer, port, address);
      }, options.delayMs);
      held.add(timer);
    });
    socket.on("error", () => undefined);
    upstreams.set(key, socket);
    return socket;
  };

  front.on("message", (msg, from) => {
    if (stopped) return;
    traffic.requests++;
    const key = `${from.address}:${from.port}`;
    traffic.bySocket.set(key, (traffic.bySocket.get(key) ?? 0) + 1);
    upstreamFor(from.address, from.port).send(msg, options.port, options.host);
  });
  front.on("error", () => undefined);
  await new Promise<void>((resolve) => front.bind(0, "127.0.0.1", resolve));

  return {
    port: front.address().port,
    traffic,
    reset() {
      traffic.requests = 0;
      traffic.answers = 0;
      traffic.bySocket.clear();
    },
    async stop() {
      stopped = true;
      for (const t of held) clearTimeout(t);
      held.clear();
      const sockets = [front, ...upstreams.values()];
      upstreams.clear();
      await Promise.all(
        sockets.map(
          (s) =>
            new Promise<void>((resolve) => {
              try {
                s.close(() => resolve());
              } catch {
                resolve();
              }
            }),
        ),
      );
    },
  };
}
