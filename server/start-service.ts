/**
 * Starting and stopping the whole service (`switchdesk serve`, the tests, embedding): the
 * listening socket first, then the store, the first superuser, the instance's presence and audit retention,
 * the demo lab, and the application; a graceful shutdown that lets requests and device
 * writes in flight finish.
 */
import type { AddressInfo } from "node:net";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { DestinationStream } from "pino";
import type { Config } from "../app/config";
import { buildServices, closeServices, ensureFirstSuperuser } from "../app/startup";
import type { Services } from "../app/services";
import { startLeftoverSweep } from "../app/port-cycles";
import { startInstancePresence, type InstancePresence } from "../app/instance-presence";
import { startAuditRetention, type AuditRetention } from "../app/audit-retention";
import { describeDirectory, directoryWarnings } from "../app/directory/config";
import { createApp } from "./app";
import { loadContract } from "./contract";

export interface RunningService {
  url: string;
  services: Services;
  stop(): Promise<void>;
  /**
   * Graceful stop: no new connections, requests and device writes in flight may finish
   * within the configured SHUTDOWN_TIMEOUT (then the rest are cut off), the database is
   * closed, and one log line says how it went. `clean` is false when something was cut off.
   */
  shutdown(reason: string): Promise<{ clean: boolean }>;
}

/**
 * Where start-up lines go: `say(line)` when given (tests, embedding), else the JSON log;
 * a generated first password never goes to the log but to stderr, in plain words.
 */
type Say = (line: string, secret?: boolean) => void;

function startupSay(services: Services): Say {
  return (line, secret) => {
    if (!secret) return services.log.info(line);
    services.log.warn(
      "a first superuser was created with a generated password; it is printed on stderr once and never logged",
    );
    const rule = "=".repeat(Math.min(line.length, 78));
    process.stderr.write(`\n${rule}\n${line}\n${rule}\n\n`);
  };
}

/** A listen() failure as one line that says what to change. */
function listenError(e: NodeJS.ErrnoException, config: Config): Error {
  switch (e.code) {
    case "EADDRINUSE":
      return new Error(
        `Port ${config.port} on ${config.host} is already in use (another switchdesk?): stop that program or set PORT to a free port`,
      );
    case "EADDRNOTAVAIL":
      return new Error(
        `HOST ${config.host} is not an address of this machine: set HOST to one of its addresses, 127.0.0.1, or 0.0.0.0 for all of them`,
      );
    case "EACCES":
      return new Error(
        `Listening on port ${config.port} needs privileges: use a port above 1023 (PORT), behind a reverse proxy for 80/443`,
      );
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new Error(`HOST ${config.host} is not a name or address this machine can resolve: set HOST to an address`);
  }
  return new Error(`Cannot listen on ${config.host}:${config.port}: ${e.message}`);
}

/** Answers while the service starts (the socket is open before anything else happens). */
function starting(_req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(503, { "Content-Type": "application/json", "Retry-After": "1", "Cache-Control": "no-store" });
  res.end(JSON.stringify({ reason: "switchdesk is starting; try again in a moment", code: "server_error" }));
}

/**
 * Starts the whole service from a configuration. The listening socket comes first: a port
 * in use or a foreign address is one clear line before anything has effects (no store
 * opened, no superuser created, no lab started). Then store, first superuser, demo lab,
 * and the application takes over the socket.
 */
export async function startService(
  config: Config,
  say?: (line: string) => void,
  options: { logDestination?: DestinationStream } = {},
): Promise<RunningService> {
  const server = http.createServer(starting);
  await new Promise<void>((resolve, reject) => {
    server.once("error", (e: NodeJS.ErrnoException) => reject(listenError(e, config)));
    server.listen(config.port, config.host, () => resolve());
  });
  let services: Services | null = null;
  let tell: Say;
  let demo: Awaited<ReturnType<typeof import("./demo").startDemoIfWanted>> = null;
  let presence: InstancePresence | null = null;
  let retention: AuditRetention | null = null;
  /** ports a cut-off bounce or power cycle left off, switched on (app/port-cycles.ts) */
  let leftovers: { stop(): Promise<void> } | null = null;
  try {
    services = await buildServices(config, options);
    tell = say ?? startupSay(services);
    const contract = await loadContract();
    if (config.directory) {
      tell(describeDirectory(config.directory));
      for (const w of directoryWarnings(config.directory)) services.log.warn(w);
    }
    const first = await ensureFirstSuperuser(services);
    if (first) {
      tell(`Created superuser '${first.username}'.`);
      if (first.generatedPassword) tell(`Its generated password (shown only now): ${first.generatedPassword}`, true);
    }
    presence = startInstancePresence(services);
    retention = startAuditRetention(services);
    leftovers = startLeftoverSweep(services);
    const { startDemoIfWanted } = await import("./demo");
    demo = await startDemoIfWanted(services, tell);
    const app = createApp(services, contract);
    server.removeListener("request", starting);
    server.on("request", app);
  } catch (e) {
    await demo?.stop();
    await presence?.stop();
    await retention?.stop();
    await leftovers?.stop();
    await services?.usage.stop();
    await services?.store.close();
    await new Promise<void>((r) => server.close(() => r()));
    throw e;
  }
  const a = server.address() as AddressInfo;
  const host = a.family === "IPv6" ? `[${a.address}]` : a.address;
  const url = `http://${host}:${a.port}`;
  tell(`switchdesk ${services.version} listening on ${url}/api/ (database: ${services.store.describe})`);
  const running: Services = services;

  // requests being answered, so that a stop can wait for them (and close each connection after its answer)
  let stopping = false;
  const inFlight = new Set<ServerResponse>();
  server.on("request", (_req: IncomingMessage, res: ServerResponse) => {
    inFlight.add(res);
    if (stopping && !res.headersSent) res.setHeader("Connection", "close");
    res.once("close", () => {
      inFlight.delete(res);
      if (stopping) server.closeIdleConnections();
    });
  });
  const closed = new Promise<void>((r) => server.once("close", () => r()));
  let stopped: Promise<{ clean: boolean }> | null = null;

  const shutdown = (reason: string) =>
    (stopped ??= (async () => {
      const started = Date.now();
      stopping = true;
      const log = running.log;
      log.info(
        { reason, requestsInFlight: inFlight.size, deviceWrites: running.devices.pendingWrites },
        "shutting down: no new connections; waiting for requests and device writes in flight",
      );
      server.close();
      server.closeIdleConnections();
      const timeout = config.shutdownTimeoutMs;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<false>((r) => (timer = setTimeout(() => r(false), timeout)));
      const connectionsDone = await Promise.race([closed.then(() => true as const), late]);
      const writesDone = await running.devices.settle(Math.max(0, timeout - (Date.now() - started)));
      clearTimeout(timer);
      const cut = inFlight.size;
      if (!connectionsDone) server.closeAllConnections();
      await demo?.stop();
      await presence?.stop();
      await retention?.stop();
      await leftovers?.stop();
      await closeServices(running);
      const clean = connectionsDone && writesDone;
      const facts = {
        reason,
        durationMs: Date.now() - started,
        requestsCutOff: cut,
        deviceWritesLeft: running.devices.pendingWrites,
      };
      if (clean) log.info(facts, "shutdown complete: requests and device writes finished, database closed");
      else log.warn(facts, `shutdown after ${timeout / 1000} s: work still in flight was cut off; database closed`);
      return { clean };
    })());

  return {
    url,
    services: running,
    async stop() {
      await shutdown("stop");
    },
    shutdown,
  };
}
