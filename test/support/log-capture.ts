/**
 * Captures everything the process logs while a test file runs: console.* (the service
 * logs through it) and direct writes to stdout and stderr. The output still goes where it
 * went before; the copy is for tests that look for what must never be logged.
 */
import util from "node:util";

export interface LogCapture {
  text(): string;
  restore(): void;
}

const METHODS = ["log", "info", "warn", "error", "debug", "trace"] as const;

/** Sets obj[key]; the function returned puts back exactly what was there (an own property, or none). */
function replace<T extends object, K extends keyof T>(obj: T, key: K, value: T[K]): () => void {
  const own = Object.getOwnPropertyDescriptor(obj, key);
  obj[key] = value;
  return () => {
    if (own) Object.defineProperty(obj, key, own);
    else Reflect.deleteProperty(obj, key);
  };
}

/** `quiet`: keep the copy only (a test that logs at debug level would flood the output) */
export function captureLogs(options: { quiet?: boolean } = {}): LogCapture {
  let captured = "";
  const undos = METHODS.map((m) => {
    const original = console[m].bind(console);
    return replace(console, m, (...args: unknown[]) => {
      captured += util.format(...args) + "\n";
      if (options.quiet) return;
      original(...args);
    });
  });
  for (const name of ["stdout", "stderr"] as const) {
    const stream = process[name];
    const original = stream.write.bind(stream) as (...a: unknown[]) => boolean;
    const write = (chunk: unknown, ...rest: unknown[]) => {
      captured += typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8");
      if (options.quiet) {
        const done = rest.find((r) => typeof r === "function") as (() => void) | undefined;
        done?.();
        return true;
      }
      return original(chunk, ...rest);
    };
    undos.push(replace(stream, "write", write as typeof stream.write));
  }
  return {
    text: () => captured,
    restore() {
      for (const undo of undos) undo();
    },
  };
}
