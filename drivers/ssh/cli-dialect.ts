/**
 * What an interactive command line session needs to know about one kind of device:
 * how its prompt looks, how to stop paging, how to become privileged and how it says
 * that a command was wrong. Parsers and command builders live with each dialect.
 */

export interface CliDialect {
  /** shown in messages */
  name: string;
  /**
   * A whole line that is a prompt: group 1 the device name, group 2 a mode suffix such as
   * "(config-if)" (may be empty), group 3 the privilege sign (">" user, "#" privileged).
   */
  promptPattern: RegExp;
  /** commands that turn paging off (and widen the terminal); sent once after login */
  setupCommands: readonly string[];
  /** the pager's marker at the end of the last line, answered with a space */
  morePattern: RegExp;
  /** becoming privileged when the login lands in user mode */
  enable: {
    command: string;
    passwordPrompt: RegExp;
  };
  /** a line that says any command (also a show) was not understood */
  syntaxError: RegExp;
  /** a line that says a configuration command was refused */
  refusal(line: string): boolean;
  /** from configuration modes back to privileged mode */
  endConfig: string;
  /** into configuration mode */
  configure: string;
}
