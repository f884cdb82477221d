/**
 * `show power inline`: the power budget (a table per module, or one "Available:" line)
 * and a row per PoE port. Layouts differ by platform: some print one power column, some
 * two ("From PS" and "To Device": the device's share is kept), some a Max column and
 * some a Priority column; the device name may hold blanks. The header says which.
 */
import { INTERFACE_TOKEN, textLines } from "./text-lines";

export interface PowerRow {
  interface: string;
  /** "auto", "off" (power inline never), "static" */
  admin: string;
  /** "on", "off", "faulty", "power-deny", "err-disable" ... */
  oper: string;
  /** watts */
  power: number;
  device: string;
  powerClass: string;
  /** watts; 0 when the platform prints no Max column */
  max: number;
}

export interface PowerBudget {
  /** module number (1 when the platform prints one budget line) */
  module: number;
  /** watts */
  available: number;
  used: number;
  remaining: number;
}

export interface PowerInline {
  budgets: PowerBudget[];
  ports: PowerRow[];
}

const NUMBER = String.raw`\d+(?:\.\d+)?`;
const BUDGET_LINE = new RegExp(
  String.raw`^Available:\s*(${NUMBER})\(w\)\s+Used:\s*(${NUMBER})\(w\)\s+Remaining:\s*(${NUMBER})\(w\)`,
  "i",
);
const MODULE_ROW = new RegExp(String.raw`^(\d+)\s+(${NUMBER})\s+(${NUMBER})\s+(${NUMBER})$`);

export function parsePowerInline(text: string): PowerInline {
  const budgets: PowerBudget[] = [];
  const ports: PowerRow[] = [];
  let table: { hasMax: boolean; hasPriority: boolean; twoPowers: boolean; started: boolean } | null = null;
  let inModules = false;
  for (const line of textLines(text)) {
    const budget = BUDGET_LINE.exec(line.trim());
    if (budget) {
      budgets.push({ module: 1, available: Number(budget[1]), used: Number(budget[2]), remaining: Number(budget[3]) });
      continue;
    }
    if (/^Module\s+Available/.test(line)) {
      inModules = true;
      table = null;
      continue;
    }
    if (/^Interface\s+Admin/.test(line)) {
      inModules = false;
      table = {
        hasMax: /\bMax\b/.test(line),
        hasPriority: /\bPriority\b/.test(line),
        twoPowers: false,
        started: false,
      };
      continue;
    }
    if (inModules) {
      const m = MODULE_ROW.exec(line.trim());
      if (m)
        budgets.push({ module: Number(m[1]), available: Number(m[2]), used: Number(m[3]), remaining: Number(m[4]) });
      continue;
    }
    if (!table) continue;
    if (/From PS/i.test(line)) {
      table.twoPowers = true;
      continue;
    }
    if (/^-[- ]*$/.test(line)) {
      // the dashes under the header open the rows, the ones under the rows close them
      if (table.started) table = null;
      else table.started = true;
      continue;
    }
    if (!table.started) continue;
    const row = powerRow(line, table);
    if (row) ports.push(row);
  }
  return { budgets, ports };
}

function powerRow(
  line: string,
  layout: { hasMax: boolean; hasPriority: boolean; twoPowers: boolean },
): PowerRow | null {
  const tokens = line.trim().split(/\s+/);
  if (!INTERFACE_TOKEN.test(tokens[0] ?? "")) return null;
  const head = new RegExp(
    String.raw`^(\S+)\s+(\S+)\s+` +
      (layout.hasPriority ? String.raw`\S+\s+` : "") +
      String.raw`(\S+)\s+(${NUMBER})` +
      (layout.twoPowers ? String.raw`\s+(${NUMBER})` : "()") +
      String.raw`(?:\s+(.*))?$`,
  ).exec(line.trim());
  if (!head) return null;
  const [, iface, admin, oper, first, second, rest] = head;
  let device = "";
  let powerClass = "";
  let max = 0;
  const tail = (rest ?? "").trim();
  if (tail) {
    const m = layout.hasMax
      ? new RegExp(String.raw`^(.*?)\s+(\S+)\s+(${NUMBER})$`).exec(tail)
      : /^(.*?)\s+(\S+)$/.exec(tail);
    if (m) {
      device = m[1].trim();
      powerClass = m[2];
      max = layout.hasMax ? Number(m[3]) : 0;
    } else {
      device = tail;
    }
  }
  return { interface: iface, admin, oper, power: Number(second || first), device, powerClass, max };
}
