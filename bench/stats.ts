/** Small statistics the benches share: quantiles of measured times, and a stopwatch. */

/** The q-quantile (0..1) of values already sorted ascending (nearest rank below). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

export function median(xs: readonly number[]): number {
  return quantile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );
}

/** median, p95 and p99 of unsorted values */
export function summary(xs: readonly number[]): { median: number; p95: number; p99: number } {
  const sorted = [...xs].sort((a, b) => a - b);
  return { median: quantile(sorted, 0.5), p95: quantile(sorted, 0.95), p99: quantile(sorted, 0.99) };
}

/** milliseconds since `start` (a process.hrtime.bigint() reading) */
export function msSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Runs fn and returns its result with the milliseconds it took. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = process.hrtime.bigint();
  const value = await fn();
  return { value, ms: msSince(start) };
}
