/**
 * The HTTPS server under the lab's API faces (AOS-CX REST, eAPI): a new self-signed
 * certificate per start, as a switch out of the box has, listening on 127.0.0.1, every
 * connection tracked so that stop() ends them at once, and the target a driver uses to
 * reach it (its certificate pinned when asked).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer } from "node:https";
import type { Socket } from "node:net";
import type { HttpsTarget } from "../../model/targets";
import { listenOnLoopback } from "../listen";
import { selfSignedCertificate, type LabCertificate } from "./self-signed";

export interface LabHttpsServer {
  port: number;
  certificate: LabCertificate;
  /** a target with short timeouts; `pin` pins this server's certificate */
  httpsTarget(username: string, password: string, pin?: boolean): HttpsTarget;
  stop(): Promise<void>;
}

/** Serves `handle` over HTTPS on 127.0.0.1 (`port`, or a free one) with a certificate for `name`. */
export async function startLabHttpsServer(
  name: string,
  handle: (req: IncomingMessage, res: ServerResponse) => void,
  port?: number,
): Promise<LabHttpsServer> {
  const certificate = selfSignedCertificate(name);
  const sockets = new Set<Socket>();
  const server = createServer({ key: certificate.key, cert: certificate.cert }, handle);
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.on("close", () => sockets.delete(socket));
  });
  // a client that gives up during the handshake (a driver refusing the certificate) is no error of the face
  server.on("tlsClientError", () => undefined);
  server.on("error", () => undefined);
  const listening = await listenOnLoopback(server, port);
  return {
    port: listening,
    certificate,
    httpsTarget: (username, password, pin = false) => ({
      host: "127.0.0.1",
      port: listening,
      username,
      password,
      ...(pin ? { certificate_fingerprint: certificate.fingerprint } : {}),
      connect_timeout_ms: 3000,
      request_timeout_ms: 3000,
    }),
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
