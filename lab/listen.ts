/**
 * The lab's faces listen on 127.0.0.1 only: on the port asked for, or one the system picks.
 */
import type { AddressInfo } from "node:net";

interface Listener {
  listen(port: number, host: string, callback: () => void): unknown;
  once(event: "error", listener: (error: Error) => void): unknown;
  address(): AddressInfo | string | null;
}

/** Starts `server` on 127.0.0.1 and resolves with its port (0 or absent: a free one). */
export function listenOnLoopback(server: Listener, port = 0): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
}
