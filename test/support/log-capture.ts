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

/** `quiet`: keep the copy only (a test that logs at debug level would flood the output) */
export function captureLogs(options: { quiet?: boolean } = {}): LogCapture {
  let captured = "";
  const originals = METHODS.map((m) => [m, console[m]] as const);
  for (const [m, original] of originals) {
    console[m] = (...args: unknown[]) => {
      captured += util.format(...args) + "\n";
      if (options.quiet) return;
      return (original as (...a: unknown[]) => void).apply(console, args);
    };
  }
  const writes = (["stdout", "stderr"] as const).map((name) => {
    const stream = process[name];
    const original = stream.write;
    stream.write = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]) {
      captured += typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8");
      if (options.quiet) {
        const done = rest.find((r) => typeof r === "function") as (() => void) | undefined;
        done?.();
        return true;
      }
      return (original as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    } as typeof stream.write;
    return () => {
      stream.write = original;
    };
  });
  return {
    text: () => captured,
    restore() {
      for (const [m, original] of originals) console[m] = original as any;
      for (const undo of writes) undo();
    },
  };
}
