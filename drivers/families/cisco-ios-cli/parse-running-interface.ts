/**
 * `show running-config interface X`: the interface's configuration lines. The
 * description is taken from here for read-backs: it is the stored text exactly, blanks
 * inside included, where listings may cut or pad it.
 */
import { textLines } from "./text-lines";

export interface InterfaceConfig {
  interface: string;
  /** "" when there is no description line */
  description: string;
  shutdown: boolean;
  /** the interface's configuration lines without their indent */
  lines: string[];
}

export function parseRunningInterfaces(text: string): InterfaceConfig[] {
  const out: InterfaceConfig[] = [];
  let current: InterfaceConfig | null = null;
  for (const line of textLines(text)) {
    const head = /^interface\s+(\S+)$/.exec(line);
    if (head) {
      current = { interface: head[1], description: "", shutdown: false, lines: [] };
      out.push(current);
      continue;
    }
    if (!current) continue;
    if (!/^ /.test(line)) {
      current = null;
      continue;
    }
    const body = line.slice(1);
    current.lines.push(body);
    // IOS puts exactly one blank after the keyword and keeps the text as typed
    if (body.startsWith("description ")) current.description = body.slice("description ".length);
    if (body === "shutdown") current.shutdown = true;
  }
  return out;
}
