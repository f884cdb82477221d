/**
 * A real OpenSSH server (Debian's sshd) inside a network namespace of the test's own,
 * with veth pairs inside it as the "ports" a Linux host driver manages.
 *
 * How the test process reaches it: one more veth pair, one end in the root namespace
 * and one in the test namespace, addressed as a /30 in 10.x private space; sshd listens
 * only on the namespace's end. So the driver makes a plain TCP connection (the code path
 * real devices take), the traffic never leaves that pair, and deleting the namespace
 * deletes both ends. Nothing else of the machine is touched but /run/sshd, the
 * privilege separation folder sshd insists on (created empty when missing).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const SSHD = "/usr/sbin/sshd";

export interface NetnsSshd {
  /** the namespace's name */
  ns: string;
  /** where sshd listens: the namespace end of the access pair */
  host: string;
  port: number;
  /** the veth links created inside the namespace as ports (each pair's first end) */
  ports: string[];
  /** the namespace end of the access pair (also a link the driver sees) */
  accessLink: string;
  /** root's private key that sshd accepts (OpenSSH format) */
  privateKey: string;
  /** sshd's host key as `ssh-keygen -l` prints it: "SHA256:..." */
  hostKeyFingerprint: string;
  /** `ip -j link show` run inside the namespace, not over SSH */
  links(): Array<{ ifname: string; flags: string[]; operstate: string; ifalias?: string }>;
  stop(): Promise<void>;
}

/** Why the namespace test cannot run here, or null when it can (checked synchronously, before tests are declared). */
export function netnsSshdUnavailable(): string | null {
  if (typeof process.getuid !== "function" || process.getuid() !== 0)
    return "not running as root (network namespaces need it)";
  if (!fs.existsSync(SSHD)) return `no OpenSSH server at ${SSHD} (Debian package openssh-server)`;
  const probe = `sdtest-probe-${process.pid}`;
  try {
    execFileSync("ip", ["netns", "add", probe], { stdio: "pipe" });
  } catch (e) {
    return `"ip netns add" failed: ${String((e as { stderr?: Buffer }).stderr ?? e).trim()}`;
  }
  execFileSync("ip", ["netns", "del", probe], { stdio: "pipe" });
  return null;
}

const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { stdio: "pipe", encoding: "utf8" });
const quiet = (cmd: string, args: string[]) => {
  try {
    run(cmd, args);
  } catch {
    // cleanup of something that may already be gone
  }
};

/** a /30 of 10.0.0.0/8 that no address or route of the root namespace narrower than /8 overlaps */
function freeSubnet(): [string, string] {
  const used: Array<[number, number]> = [];
  const toInt = (ip: string) => ip.split(".").reduce((a, b) => a * 256 + Number(b), 0);
  const routes = JSON.parse(run("ip", ["-j", "-4", "route", "show", "table", "all"]) || "[]") as Array<{ dst: string }>;
  const addrs = JSON.parse(run("ip", ["-j", "-4", "addr", "show"]) || "[]") as Array<{
    addr_info?: Array<{ local: string; prefixlen: number }>;
  }>;
  const add = (ip: string, len: number) => {
    if (len <= 8) return; // a covering route (10.0.0.0/8) loses to our more specific /30
    const size = 2 ** (32 - len);
    const start = Math.floor(toInt(ip) / size) * size;
    used.push([start, start + size - 1]);
  };
  for (const r of routes) {
    const m = /^(\d+\.\d+\.\d+\.\d+)(?:\/(\d+))?$/.exec(r.dst);
    if (m) add(m[1], m[2] ? Number(m[2]) : 32);
  }
  for (const a of addrs) for (const i of a.addr_info ?? []) add(i.local, i.prefixlen);
  for (let attempt = 0; attempt < 50; attempt++) {
    const [b, c, d] = [randomBytes(1)[0], randomBytes(1)[0], randomBytes(1)[0] & 0xfc];
    const base = toInt(`10.${b}.${c}.${d}`);
    if (used.every(([s, e]) => base + 3 < s || base > e)) return [`10.${b}.${c}.${d + 1}`, `10.${b}.${c}.${d + 2}`];
  }
  throw new Error("no free /30 in 10.0.0.0/8 for the access link");
}

async function waitForPort(host: string, port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; attempt < 200 && Date.now() < deadline; attempt++) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect({ host, port, timeout: 300 }, () => {
        s.destroy();
        resolve(true);
      });
      s.on("error", () => resolve(false));
      s.on("timeout", () => {
        s.destroy();
        resolve(false);
      });
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`sshd did not listen on ${host}:${port} within ${timeoutMs} ms`);
}

/** Waits (bounded) until `check` holds; the kernel applies link state changes asynchronously. */
export async function settled(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; attempt < 500; attempt++) {
    if (check()) return;
    if (Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${what}: not within ${timeoutMs} ms`);
}

export async function startNetnsSshd(portCount = 2): Promise<NetnsSshd> {
  const id = randomBytes(3).toString("hex");
  const ns = `sdtest-ssh-${id}`;
  const rootEnd = `sdh-${id}`;
  const nsEnd = `sdn-${id}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sdtest-sshd-"));
  let sshd: ChildProcess | null = null;

  const stop = async () => {
    if (sshd && sshd.exitCode === null) {
      let timer: NodeJS.Timeout | undefined;
      const exited = new Promise((r) => sshd!.once("exit", r));
      sshd.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 2000)))]);
      clearTimeout(timer);
    }
    // deleting the namespace deletes the veths in it, and with them their root-side peers
    quiet("ip", ["netns", "del", ns]);
    quiet("ip", ["link", "del", rootEnd]);
    fs.rmSync(dir, { recursive: true, force: true });
  };

  try {
    run("ip", ["netns", "add", ns]);
    const [rootAddr, nsAddr] = freeSubnet();
    run("ip", ["link", "add", rootEnd, "type", "veth", "peer", "name", nsEnd, "netns", ns]);
    run("ip", ["addr", "add", `${rootAddr}/30`, "dev", rootEnd]);
    run("ip", ["link", "set", rootEnd, "up"]);
    run("ip", ["-n", ns, "addr", "add", `${nsAddr}/30`, "dev", nsEnd]);
    run("ip", ["-n", ns, "link", "set", nsEnd, "up"]);
    run("ip", ["-n", ns, "link", "set", "lo", "up"]);
    const ports: string[] = [];
    for (let n = 1; n <= portCount; n++) {
      run("ip", ["-n", ns, "link", "add", `port${n}`, "type", "veth", "peer", "name", `port${n}-peer`]);
      run("ip", ["-n", ns, "link", "set", `port${n}`, "up"]);
      run("ip", ["-n", ns, "link", "set", `port${n}-peer`, "up"]);
      ports.push(`port${n}`);
    }

    // the kernel reports a new link's operstate a moment after it is up: start from a settled state
    await settled(
      () => {
        const links = JSON.parse(run("ip", ["-n", ns, "-j", "link", "show"])) as Array<{
          ifname: string;
          operstate: string;
        }>;
        return ports.every((p) => links.find((l) => l.ifname === p)?.operstate === "UP");
      },
      5000,
      "veth ports up",
    );

    // keys of this test only; sshd wants absolute paths for all of its files
    run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "sdtest-host", "-f", path.join(dir, "host_ed25519")]);
    run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "sdtest-client", "-f", path.join(dir, "client_ed25519")]);
    fs.copyFileSync(path.join(dir, "client_ed25519.pub"), path.join(dir, "authorized_keys"));
    fs.chmodSync(path.join(dir, "authorized_keys"), 0o600);
    const config = path.join(dir, "sshd_config");
    fs.writeFileSync(
      config,
      [
        "Port 22",
        `ListenAddress ${nsAddr}`,
        `HostKey ${path.join(dir, "host_ed25519")}`,
        `PidFile ${path.join(dir, "sshd.pid")}`,
        `AuthorizedKeysFile ${path.join(dir, "authorized_keys")}`,
        "PermitRootLogin prohibit-password",
        "PubkeyAuthentication yes",
        "PasswordAuthentication no",
        "KbdInteractiveAuthentication no",
        "UsePAM no",
        // the temporary folder is not root's home; its modes are the test's business
        "StrictModes no",
        "PrintMotd no",
        "LogLevel ERROR",
        // the session's HOME is the test's folder: bash started by sshd reads ~/.bashrc even
        // for a single command, and the machine's own root profile (pyenv, cargo and the
        // like) cost half a second per command, most of these suites' time
        `SetEnv HOME=${dir}`,
        "",
      ].join("\n"),
    );
    if (!fs.existsSync("/run/sshd")) fs.mkdirSync("/run/sshd", { mode: 0o755, recursive: true });
    // "ip netns exec" execs sshd in place, so the child is sshd itself; -D keeps it in the foreground
    sshd = spawn("ip", ["netns", "exec", ns, SSHD, "-D", "-e", "-f", config], { stdio: ["ignore", "ignore", "pipe"] });
    let sshdErrors = "";
    sshd.stderr?.on("data", (d: Buffer) => (sshdErrors += d.toString()));
    await waitForPort(nsAddr, 22, 5000).catch((e: Error) => {
      throw new Error(`${e.message}; sshd said: ${sshdErrors.trim() || "(nothing)"}`);
    });

    const fingerprint = run("ssh-keygen", ["-l", "-f", path.join(dir, "host_ed25519.pub")]).split(/\s+/)[1];
    return {
      ns,
      host: nsAddr,
      port: 22,
      ports,
      accessLink: nsEnd,
      privateKey: fs.readFileSync(path.join(dir, "client_ed25519"), "utf8"),
      hostKeyFingerprint: fingerprint,
      links: () => JSON.parse(run("ip", ["netns", "exec", ns, "ip", "-j", "link", "show"])),
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}
