/**
 * Reading typed values out of varbinds. Agents are not always faithful to the MIB
 * (Gauge where Integer is due, text with trailing NULs), so these accept what real
 * agents send and fall back to a neutral value instead of throwing.
 */
import type { Varbind } from "./net-snmp-api";

export function asInt(vb: Varbind | null | undefined, fallback = 0): number {
  const v = vb?.value;
  if (typeof v === "number") return v;
  if (Buffer.isBuffer(v) && v.length > 0 && v.length <= 6) return v.readUIntBE(0, v.length);
  if (typeof v === "string" && /^-?\d+$/.test(v)) return Number(v);
  return fallback;
}

export function asText(vb: Varbind | null | undefined): string {
  const v = vb?.value;
  if (Buffer.isBuffer(v)) return v.toString("utf8").replace(/\0+$/, "");
  if (v === null || v === undefined) return "";
  return String(v);
}

export function asBytes(vb: Varbind | null | undefined): Buffer {
  const v = vb?.value;
  if (Buffer.isBuffer(v)) return v;
  if (typeof v === "string") return Buffer.from(v, "latin1");
  return Buffer.alloc(0);
}

/** "00:11:22:33:44:55" from 6 raw bytes; other lengths as colon hex too. */
export function macText(bytes: Buffer): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join(":");
}

/** OID index arcs -> MAC ("0.17.34.51.68.85" -> "00:11:22:33:44:55"). */
export function macFromArcs(arcs: string[]): string {
  return macText(Buffer.from(arcs.map(Number)));
}

/** sysUpTime hundredths of a second -> "12 days, 03:04:05". */
export function uptimeText(ticks: number): string {
  const seconds = Math.floor(ticks / 100);
  const days = Math.floor(seconds / 86400);
  const rest = seconds % 86400;
  const hh = String(Math.floor(rest / 3600)).padStart(2, "0");
  const mm = String(Math.floor((rest % 3600) / 60)).padStart(2, "0");
  const ss = String(rest % 60).padStart(2, "0");
  return `${days} day${days === 1 ? "" : "s"}, ${hh}:${mm}:${ss}`;
}
