/**
 * A load client on a thread of its own: it sends the same call `concurrency` at a time, in
 * phases (a warm-up, then the measured calls), and hands back every answer's status and
 * time. In a worker thread its event loop, JIT and garbage collection are not the
 * service's: a scenario whose service runs in the bench's process (the menu, whose 630 kB
 * answers the client must read) then measures the service's time, not its own client's.
 * It reads each answer to its end without keeping or parsing it (node:http on keep-alive
 * connections, one per concurrent caller).
 */
import http from "node:http";
import path from "node:path";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";

export interface LoadPlan {
  baseUrl: string;
  method: string;
  path: string;
  token: string;
  concurrency: number;
  /** calls per phase, one phase after another */
  phases: number[];
}

export interface PhaseAnswer {
  /** the HTTP status, 0 when no answer came */
  status: number;
  /** the error when no answer came */
  code: string;
  ms: number;
}

export interface Phase {
  answers: PhaseAnswer[];
  /** the phase's wall time, first call sent to last answer read */
  ms: number;
}

/** Runs the plan on a worker thread; resolves to each phase: its answers in the order they came, and its time. */
export function runLoadInWorker(plan: LoadPlan): Promise<Phase[]> {
  return new Promise((resolve, reject) => {
    // the compiled file next to this one (the bench runs from dist/)
    const worker = new Worker(path.join(__dirname, "load-worker.js"), { workerData: plan });
    let result: Phase[] | null = null;
    worker.once("message", (m: Phase[]) => (result = m));
    worker.once("error", reject);
    worker.once("exit", (code) =>
      result ? resolve(result) : reject(new Error(`the load worker ended (exit code ${code}) without an answer`)),
    );
  });
}

function call(plan: LoadPlan, agent: http.Agent): Promise<PhaseAnswer> {
  const start = process.hrtime.bigint();
  const ms = () => Number(process.hrtime.bigint() - start) / 1e6;
  return new Promise((resolve) => {
    const req = http.request(
      plan.baseUrl + plan.path,
      { method: plan.method, agent, headers: { accept: "application/json", authorization: `Token ${plan.token}` } },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, code: "", ms: ms() }));
        res.on("error", (e) => resolve({ status: 0, code: e.message, ms: ms() }));
      },
    );
    req.on("error", (e) => resolve({ status: 0, code: e.message, ms: ms() }));
    req.end();
  });
}

async function runPlan(plan: LoadPlan): Promise<Phase[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: plan.concurrency });
  const out: Phase[] = [];
  for (const count of plan.phases) {
    const answers: PhaseAnswer[] = [];
    const start = process.hrtime.bigint();
    let next = 0;
    await Promise.all(
      Array.from({ length: plan.concurrency }, async () => {
        while (next < count) {
          next++;
          answers.push(await call(plan, agent));
        }
      }),
    );
    out.push({ answers, ms: Number(process.hrtime.bigint() - start) / 1e6 });
  }
  agent.destroy();
  return out;
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  void runPlan(workerData as LoadPlan).then((r) => port.postMessage(r));
}
