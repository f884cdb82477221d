/**
 * A UDP relay on 127.0.0.1 in front of an agent no one here wrote (snmpsimd), so a test
 * can see the traffic on the wire: how many requests a manager sent, how many got an
 * answer, and how large the answers were. Each client socket gets its own upstream
 * socket, so answers go back to the socket that asked.
 */
import dgram from "node:dgram";

export interface RelayTraffic {
  /** datagrams from managers to the agent */
  requests: number;
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
  const traffic: RelayTraffic = { requests: 0, answers: 0, largestAnswer: 0 };

  front.on("message", (msg, from) => {
    traffic.requests++;
    const key = `${from.address}:${from.port}`;
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
      traffic.requests = 0;
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
