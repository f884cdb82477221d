/** `show version`: the facts the device section shows (name, software, model, serial, uptime). */
import { textLines } from "./text-lines";

export interface VersionInfo {
  hostname: string;
  version: string;
  model: string;
  serial: string;
  uptime: string;
  /** the first line ("Cisco IOS Software, ...") */
  software: string;
}

export function parseShowVersion(text: string): VersionInfo {
  const lines = textLines(text);
  const find = (re: RegExp) => {
    for (const l of lines) {
      const m = re.exec(l);
      if (m) return m[1].trim();
    }
    return "";
  };
  return {
    hostname: find(/^(\S+) uptime is /),
    version: find(/\bVersion ([^\s,]+)/),
    model: find(/^Model [Nn]umber\s*:\s*(\S+)/) || find(/^[Cc]isco (\S+) .*processor/),
    serial: find(/^System [Ss]erial [Nn]umber\s*:\s*(\S+)/) || find(/^Processor board ID (\S+)/),
    uptime: find(/^\S+ uptime is (.*)$/),
    software: lines.find((l) => l.trim() !== "")?.trim() ?? "",
  };
}
