/**
 * A UDP relay on 127.0.0.1 in front of an agent no one here wrote (snmpsimd), so a test
 * can see the traffic on the wire: how many requests a manager sent, how many got an
 * answer, and how large the answers were. Each client socket gets its own upstream
 * socket, so answers go back to the socket that asked.
 */
import dgram from "node:dgram";
import { BerReader } from "../../mib/ber";
import { Tag } from "../../mib/smi-values";
import { decodePdu } from "../../mib/pdu";

export interface RelayTraffic {
  /** datagrams from managers to the agent */
  requests: number;
  /**
   * requests apart from their retries: a manager that gets no answer in time sends the same
   * request again (same socket, same request id), which the agent may then answer twice
   */
  distinct: number;
  /** datagrams from the agent back */
  answers: number;
  /** the largest answer, bytes */
  largestAnswer: number;
}

export interface UdpRelay {
  port: number;
  traffic: RelayTraffic;
  reset(): void;
  stop(): Promise<void>;
}

export async function startUdpRelay(agentPort: number): Promise<UdpRelay> {
  const front = dgram.createSocket("udp4");
  const upstream = new Map<string, dgram.Socket>();
  const traffic: RelayTraffic = { requests: 0, distinct: 0, answers: 0, largestAnswer: 0 };
  const seen = new Set<string>();

  front.on("message", (msg, from) => {
    traffic.requests++;
    const key = `${from.address}:${from.port}`;
    const id = requestIdOf(msg);
    if (id === null || !seen.has(`${key} ${id}`)) traffic.distinct++;
    if (id !== null) seen.add(`${key} ${id}`);
    let up = upstream.get(key);
    if (!up) {
      const socket = dgram.createSocket("udp4");
      socket.on("message", (answer) => {
        traffic.answers++;
        traffic.largestAnswer = Math.max(traffic.largestAnswer, answer.length);
        front.send(answer, from.port, from.address);
      });
      socket.on("error", () => undefined);
      upstream.set(key, socket);
      up = socket;
    }
    up.send(msg, agentPort, "127.0.0.1");
  });
  front.on("error", () => undefined);
  await new Promise<void>((resolve) => front.bind(0, "127.0.0.1", resolve));

  return {
    port: front.address().port,
    traffic,
    reset() {
      seen.clear();
      traffic.requests = 0;
      traffic.distinct = 0;
      traffic.answers = 0;
      traffic.largestAnswer = 0;
    },
    async stop() {
      const sockets = [front, ...upstream.values()];
      upstream.clear();
      await Promise.all(sockets.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    },
  };
}

/** an SNMPv1/v2c request's id, or null for anything else (v3, garbage) */
function requestIdOf(msg: Buffer): number | null {
  try {
    const r = new BerReader(msg).enter(Tag.Sequence);
    if (r.readInteger() > 1) return null;
    r.readOctets();
    return decodePdu(r).requestId;
  } catch {
    return null;
  }
}
