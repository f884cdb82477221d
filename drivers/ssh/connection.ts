/**
 * One SSH connection (ssh2 client) with the project's failures: no answer, a refused
 * port or a refused login are DeviceUnreachable, a host key other than the pinned one is
 * HostKeyChanged. The presented key's fingerprint is kept so the caller can pin it on
 * first use. Sessions (an interactive shell, exec channels) are built on top of this.
 */
import type { Client, ConnectConfig } from "ssh2";
import { DeviceUnreachable } from "../../model/failures";
import { HostKeyChanged, sameFingerprint, sha256Fingerprint } from "./host-key";
import { describeTarget, type SshTarget } from "./target";

export interface SshConnection {
  readonly client: Client;
  /** "name (host:port)" for messages */
  readonly where: string;
  /** fingerprint of the host key the device presented ("SHA256:...") */
  readonly hostKey: string;
  /** true once the connection is gone (closed by either side or broken) */
  readonly closed: boolean;
  /** called once when the connection goes away after it was ready; returns the unsubscribe */
  onClose(listener: () => void): () => void;
  close(): void;
}

// ssh2's own handshake timer covers TCP, key exchange and login; ours only backs it up
const SAFETY_MARGIN_MS = 1000;

/** ssh2, loaded at the first SSH connection (it adds about 90 ms to a start that needs none) */
let ssh2: typeof import("ssh2") | null = null;

export function openSshConnection(target: SshTarget, options: { name?: string } = {}): Promise<SshConnection> {
  const where = describeTarget(target, options.name);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded when first needed, see `ssh2` above
  ssh2 ??= require("ssh2") as typeof import("ssh2");
  const client = new ssh2.Client();
  let presented: string | null = null;
  let keyRefused = false;
  let ready = false;
  let closed = false;
  const closeListeners: Array<() => void> = [];

  const connection: SshConnection = {
    client,
    where,
    get hostKey() {
      return presented ?? "";
    },
    get closed() {
      return closed;
    },
    onClose: (listener) => {
      if (closed) {
        listener();
        return () => undefined;
      }
      closeListeners.push(listener);
      return () => {
        const i = closeListeners.indexOf(listener);
        if (i >= 0) closeListeners.splice(i, 1);
      };
    },
    close: () => {
      if (!closed) client.end();
    },
  };

  return new Promise<SshConnection>((resolve, reject) => {
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      client.end();
      reject(error);
    };
    const timer = setTimeout(
      () => fail(new DeviceUnreachable(`No SSH answer from ${where} within ${target.connect_timeout_ms} ms`)),
      target.connect_timeout_ms + SAFETY_MARGIN_MS,
    );

    client.on("ready", () => {
      if (settled) return;
      settled = true;
      ready = true;
      clearTimeout(timer);
      resolve(connection);
    });
    client.on("error", (err: Error & { level?: string; code?: string }) => {
      if (ready) return; // after login a broken connection shows as "close" to the sessions
      fail(connectFailure(err, where, target, { keyRefused, presented }));
    });
    client.on("close", () => {
      const wasClosed = closed;
      closed = true;
      if (!ready) {
        fail(
          keyRefused
            ? new HostKeyChanged(where, presented ?? "", target.host_key_fingerprint ?? "")
            : new DeviceUnreachable(`${where} closed the SSH connection before the login finished`),
        );
        return;
      }
      if (!wasClosed) for (const l of closeListeners.splice(0)) l();
    });

    const config: ConnectConfig = {
      host: target.host,
      port: target.port,
      username: target.username,
      readyTimeout: target.connect_timeout_ms,
      // the login is unattended: no keyboard-interactive prompts, no agent
      tryKeyboard: false,
      hostVerifier: (key: Buffer): boolean => {
        presented = sha256Fingerprint(key);
        const pinned = target.host_key_fingerprint;
        if (pinned && !sameFingerprint(pinned, presented)) {
          keyRefused = true;
          return false;
        }
        return true;
      },
    };
    if (target.password !== undefined) config.password = target.password;
    if (target.private_key) {
      config.privateKey = target.private_key;
      if (target.passphrase !== undefined) config.passphrase = target.passphrase;
    }
    try {
      client.connect(config);
      // a command line sends small packets both ways: Nagle plus delayed ACKs cost ~40 ms a command
      client.setNoDelay(true);
    } catch (e) {
      // ssh2 parses the private key synchronously; its message never holds the key itself
      fail(
        new DeviceUnreachable(
          `Cannot log in to ${where}: the SSH private key cannot be used (${(e as Error).message})`,
        ),
      );
    }
  });
}

function connectFailure(
  err: Error & { level?: string; code?: string },
  where: string,
  target: SshTarget,
  seen: { keyRefused: boolean; presented: string | null },
): Error {
  if (seen.keyRefused) return new HostKeyChanged(where, seen.presented ?? "", target.host_key_fingerprint ?? "");
  if (err.code === "ECONNREFUSED")
    return new DeviceUnreachable(`${where} refused the SSH connection (nothing listens on port ${target.port})`);
  if (err.level === "client-timeout" || /timed out/i.test(err.message)) {
    return new DeviceUnreachable(`No SSH answer from ${where} within ${target.connect_timeout_ms} ms`);
  }
  if (err.level === "client-authentication") {
    return new DeviceUnreachable(`${where} refused the SSH login of user '${target.username}'`);
  }
  if (err.code && /^(EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|ECONNRESET|EPIPE|EADDRNOTAVAIL)$/.test(err.code)) {
    return new DeviceUnreachable(`Cannot reach ${where} over SSH (${err.code})`);
  }
  return new DeviceUnreachable(`SSH connection to ${where} failed: ${err.message}`);
}
