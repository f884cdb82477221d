/**
 * How the lab's command lines (the IOS shell of the SSH face, the EOS commands of the eAPI
 * face) match a typed line against a command's words: keywords, and the placeholders
 * IFACE (an interface, in one word or two: "GigabitEthernet 1/0/1"), VLAN (1..4094),
 * NUMBER (0..65535), VLANLIST ("1,10,20-30"), WORD (any one word) and REST (the rest of
 * the line). Each face says how its keywords may be shortened and how it finds an
 * interface by name; the modes, the commands and their output stay the face's own.
 */

export interface Token {
  text: string;
  at: number;
}

export function tokenize(line: string): Token[] {
  return [...line.matchAll(/\S+/g)].map((m) => ({ text: m[0], at: m.index ?? 0 }));
}

/** "1,10,20-30" as both command lines take a VLAN list (1..4094, ranges low-high), or null */
export function vlanList(text: string): number[] | null {
  if (!/^\d+(-\d+)?(,\d+(-\d+)?)*$/.test(text)) return null;
  const out = new Set<number>();
  for (const item of text.split(",")) {
    const [from, to = from] = item.split("-").map(Number);
    if (from < 1 || to > 4094 || from > to) return null;
    for (let v = from; v <= to; v++) out.add(v);
  }
  return [...out];
}

export interface GrammarRules<I> {
  /** the interface a name means, or null */
  findInterface(text: string): I | null;
  /** whether the typed word stands for the keyword (whole, or shortened where allowed) */
  keyword(word: string, typed: string): boolean;
  /** called when no interface has the name at the token; may throw the face's own error */
  unknownInterface?(token: Token, line: string): void;
}

/** The arguments the placeholders took, and how many keywords were typed in full. */
export type WordsMatch<I> =
  | { ok: { args: Array<I | number | string | number[]>; exact: number } }
  | { incomplete: number }
  | { failedAt: number };

/** Matches the tokens of `line` against a command's words. */
export function matchWords<I>(
  words: readonly string[],
  tokens: readonly Token[],
  line: string,
  rules: GrammarRules<I>,
): WordsMatch<I> {
  const args: Array<I | number | string | number[]> = [];
  let exact = 0;
  let t = 0;
  for (const word of words) {
    const token = tokens[t];
    if (!token) return { incomplete: t };
    if (word === "REST") {
      args.push(line.slice(token.at).trimEnd());
      t = tokens.length;
      continue;
    }
    if (word === "IFACE") {
      // "GigabitEthernet 1/0/1" is one name in two words
      const next = tokens[t + 1];
      const two = next && /^[A-Za-z-]+$/.test(token.text) ? rules.findInterface(`${token.text}${next.text}`) : null;
      const one = two ? null : rules.findInterface(token.text);
      if (two) {
        args.push(two);
        t += 2;
      } else if (one) {
        args.push(one);
        t += 1;
      } else {
        rules.unknownInterface?.(token, line);
        return { failedAt: token.at };
      }
      continue;
    }
    if (word === "VLANLIST") {
      const list = vlanList(token.text);
      if (!list) return { failedAt: token.at };
      args.push(list);
      t++;
      continue;
    }
    if (word === "VLAN" || word === "NUMBER") {
      const n = /^\d+$/.test(token.text) ? Number(token.text) : NaN;
      if (!(n >= (word === "VLAN" ? 1 : 0) && n <= (word === "VLAN" ? 4094 : 65535))) return { failedAt: token.at };
      args.push(n);
      t++;
      continue;
    }
    if (word === "WORD") {
      args.push(token.text);
      t++;
      continue;
    }
    const typed = token.text.toLowerCase();
    if (!rules.keyword(word, typed)) return { failedAt: token.at };
    if (word === typed) exact++;
    t++;
  }
  if (t < tokens.length) return { failedAt: tokens[t].at };
  return { ok: { args, exact } };
}
