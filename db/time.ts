/** Timestamps are ISO 8601 UTC with Z everywhere (API and storage). */
export const nowIso = (): string => new Date().toISOString();
export const isoPlus = (ms: number, from = Date.now()): string => new Date(from + ms).toISOString();
export const bool = (v: unknown): boolean => v === 1 || v === true || v === "1";
export const bit = (v: boolean): number => (v ? 1 : 0);
