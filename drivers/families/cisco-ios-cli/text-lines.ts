/** Lines of command output without line-end characters and trailing blanks (devices vary in both). */
export function textLines(text: string): string[] {
  return text.split(/\r?\n|\r/).map((l) => l.trimEnd());
}

/** A token that looks like an interface name in either spelling (Gi1/0/1, Port-channel1, Vl99). */
export const INTERFACE_TOKEN = /^[A-Za-z][A-Za-z-]*\d+(?:[/:.]\d+)*$/;
