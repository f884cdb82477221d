/**
 * What a terminal would show for the bytes an interactive shell sent. Devices redraw
 * with carriage returns and backspaces (a pager erases its "--More--" that way) and
 * sprinkle ANSI escapes; parsers want the lines a person would read, so this replays
 * the cursor movements instead of deleting characters by pattern.
 */

// CSI sequences (colours, cursor moves, erase), charset selection and keypad modes
// eslint-disable-next-line no-control-regex -- terminal escapes begin with ESC and end with BEL by definition
const ESCAPES = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][A-Za-z0-9]|\x1b[=>78]|\x1b\][^\x07]*\x07/g;

/** The screen lines of `raw`, each without trailing blanks; the last one is the unfinished line. */
export function terminalLines(raw: string): string[] {
  const text = raw.replace(ESCAPES, "");
  const lines: string[] = [];
  let line: string[] = [];
  let cursor = 0;
  for (const ch of text) {
    if (ch === "\n") {
      lines.push(line.join("").trimEnd());
      line = [];
      cursor = 0;
    } else if (ch === "\r") {
      cursor = 0;
    } else if (ch === "\b") {
      if (cursor > 0) cursor--;
    } else if (ch === "\x07" || ch === "\x00") {
      // bell and padding draw nothing
    } else {
      if (cursor < line.length) line[cursor] = ch;
      else {
        while (line.length < cursor) line.push(" ");
        line.push(ch);
      }
      cursor++;
    }
  }
  lines.push(line.join("").trimEnd());
  return lines;
}

/** The unfinished last line as the terminal shows it (where prompts and pagers appear). */
export function lastTerminalLine(raw: string): string {
  const nl = raw.lastIndexOf("\n");
  const tail = terminalLines(raw.slice(nl + 1));
  return tail[tail.length - 1];
}
