/**
 * A plain ssh2 client with an interactive shell, for tests that look at an SSH face
 * from the outside the way a person at a terminal would: send keys, wait until the
 * screen shows something. It knows no prompts or pagers (the drivers' session does);
 * every wait has a deadline.
 */
import { Client } from "ssh2";
import type { ClientChannel } from "ssh2";
import { sha256Fingerprint } from "../../drivers/ssh/host-key";

export interface Terminal {
  /** everything received so far (raw, with echoes and control characters) */
  readonly screen: string;
  /** the host key fingerprint the server presented */
  readonly hostKey: string;
  send(keys: string): void;
  /** resolves with the screen once `pattern` matches what arrived after `from` (default: since the last send) */
  until(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** resolves when the server ends the connection */
  closed(timeoutMs?: number): Promise<void>;
  close(): void;
}

export interface TerminalLogin {
  port: number;
  username: string;
  password?: string;
  privateKey?: string;
}

export function openTerminal(login: TerminalLogin): Promise<Terminal> {
  const client = new Client();
  let hostKey = "";
  let screen = "";
  let mark = 0;
  let ended = false;
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((l) => l());

  return new Promise<Terminal>((resolve, reject) => {
    client.on("error", reject);
    client.on("close", () => {
      ended = true;
      notify();
    });
    client.on("ready", () => {
      client.shell({ term: "vt100", cols: 200, rows: 24 }, (err, stream: ClientChannel) => {
        if (err) return reject(err);
        stream.setEncoding("utf8");
        stream.on("data", (d: string) => {
          screen += d;
          notify();
        });
        const wait = (check: () => boolean, timeoutMs: number, what: string) =>
          new Promise<void>((ok, fail) => {
            const done = () => {
              clearTimeout(timer);
              listeners.delete(listener);
            };
            const timer = setTimeout(() => {
              done();
              fail(
                new Error(
                  `terminal: no ${what} within ${timeoutMs} ms; screen ends with ${JSON.stringify(screen.slice(-300))}`,
                ),
              );
            }, timeoutMs);
            const listener = () => {
              if (check()) {
                done();
                ok();
              }
            };
            listeners.add(listener);
            listener();
          });
        resolve({
          get screen() {
            return screen;
          },
          hostKey,
          send(keys) {
            mark = screen.length;
            stream.write(keys);
          },
          async until(pattern, timeoutMs = 3000) {
            await wait(() => pattern.test(screen.slice(mark)), timeoutMs, String(pattern));
            return screen.slice(mark);
          },
          closed: (timeoutMs = 3000) => wait(() => ended, timeoutMs, "end of the connection"),
          close: () => client.end(),
        });
      });
    });
    client.connect({
      host: "127.0.0.1",
      port: login.port,
      username: login.username,
      password: login.password,
      privateKey: login.privateKey,
      readyTimeout: 3000,
      tryKeyboard: false,
      hostVerifier: (key: Buffer) => {
        hostKey = sha256Fingerprint(key);
        return true;
      },
    });
  });
}
