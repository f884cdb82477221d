/** Timestamps are ISO 8601 UTC with Z everywhere (API and storage). */
export const nowIso = (): string => new Date().toISOString();
export const isoPlus = (ms: number, from = Date.now()): string => new Date(from + ms).toISOString();
