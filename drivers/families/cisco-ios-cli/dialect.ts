/** The Cisco IOS command line as the session needs to know it (see ../cli-dialect.ts). */
import type { CliDialect } from "../../ssh/cli-dialect";

// "%" lines that only inform: the command still did what it said
const NOTICE = /^%\s*(Warning|Note|Info|Access VLAN does not exist\. Creating vlan)/i;

export const iosDialect: CliDialect = {
  name: "Cisco IOS",
  promptPattern: /^([A-Za-z0-9][\w.\-/:@]*?)(\([\w.-]+\))?([>#])$/,
  // width too: long lines (descriptions) are not wrapped or scrolled with "$"
  setupCommands: ["terminal length 0", "terminal width 511"],
  morePattern: /--More--$/,
  enable: { command: "enable", passwordPrompt: /^Password:$/i },
  syntaxError: /^%\s*(Invalid input|Incomplete command|Ambiguous command|Unknown command|Unrecognized command)/i,
  refusal: (line) => /^\s*%/.test(line) && !NOTICE.test(line.trim()),
  configure: "configure terminal",
  endConfig: "end",
};
