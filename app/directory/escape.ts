/**
 * What a user types never changes the shape of a directory request: values put into a
 * search filter are escaped per RFC 4515, values put into a DN per RFC 4514. DNs that
 * come from configuration or from the server are compared in a normalised form.
 */

const hex2 = (code: number) => "\\" + code.toString(16).padStart(2, "0");

/** ASCII control characters (NUL included) and DEL */
const isControl = (code: number) => code < 0x20 || code === 0x7f;

/**
 * RFC 4515 section 3: in an assertion value `*`, `(`, `)`, `\` and NUL must be written as
 * a backslash and two hex digits. Other ASCII control characters are escaped the same way
 * (allowed, and keeps them out of logs and server parsers). Non-ASCII characters stay as
 * they are: they travel as UTF-8, and escaping single UTF-8 bytes is what some client
 * libraries decode wrongly.
 */
export function escapeFilterValue(value: string): string {
  let out = "";
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (ch === "*" || ch === "(" || ch === ")" || ch === "\\" || isControl(code)) out += hex2(code);
    else out += ch;
  }
  return out;
}

/**
 * RFC 4514 section 2.4: an attribute value inside a DN. `"`, `+`, `,`, `;`, `<`, `>`, `\`
 * (and `=`, which the RFC allows to escape) get a backslash; a leading space or `#` and a
 * trailing space get one too; NUL and other control characters become a backslash and
 * two hex digits.
 */
export function escapeDnValue(value: string): string {
  const chars = [...value];
  let out = "";
  chars.forEach((ch, i) => {
    const code = ch.codePointAt(0)!;
    if (isControl(code)) out += hex2(code);
    else if ('"+,;<>\\='.includes(ch)) out += "\\" + ch;
    else if (i === 0 && (ch === " " || ch === "#")) out += "\\" + ch;
    else if (i === chars.length - 1 && ch === " ") out += "\\ ";
    else out += ch;
  });
  return out;
}

/**
 * Puts values into a configured template: every `{name}` is replaced by the escaped value.
 * Placeholders without a value are left alone (config validation reports them).
 */
export function fillTemplate(template: string, values: Record<string, string>, escape: (v: string) => string): string {
  return template.replace(/\{([a-z]+)\}/g, (whole, name: string) => (name in values ? escape(values[name]) : whole));
}

/** one RDN: its attribute type and value pairs; `hex` marks a value written as #hex (BER) */
export type Rdn = Array<{ type: string; value: string; hex?: boolean }>;

/**
 * Parses a DN string (RFC 4514) into RDNs, unescaping values. Accepts spaces around the
 * separators and `;` as an old-style separator. Returns null when the text is not a DN.
 */
export function parseDn(dn: string): Rdn[] | null {
  const text = dn.trim();
  if (text === "") return [];
  const rdns: Rdn[] = [];
  let rdn: Rdn = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && text[i] === " ") i++;
    const eq = text.indexOf("=", i);
    if (eq < 0) return null;
    const type = text.slice(i, eq).trim();
    if (!/^([A-Za-z][A-Za-z0-9-]*|\d+(\.\d+)*)$/.test(type)) return null;
    i = eq + 1;
    while (i < n && text[i] === " ") i++;
    let value: string;
    let hex = false;
    if (text[i] === "#") {
      hex = true;
      const m = /^#([0-9A-Fa-f]{2})+/.exec(text.slice(i));
      if (!m) return null;
      value = m[0].toLowerCase();
      i += m[0].length;
      while (i < n && text[i] === " ") i++;
    } else {
      const bytes: number[] = [];
      let lastSignificant = 0; // length of bytes up to the last char that was not an unescaped space
      while (i < n && text[i] !== "," && text[i] !== "+" && text[i] !== ";") {
        const ch = text[i];
        if (ch === "\\") {
          const pair = text.slice(i + 1, i + 3);
          if (/^[0-9A-Fa-f]{2}$/.test(pair)) {
            bytes.push(parseInt(pair, 16));
            i += 3;
          } else if (i + 1 < n) {
            bytes.push(...Buffer.from(text[i + 1], "utf8"));
            i += 2;
          } else return null;
          lastSignificant = bytes.length;
          continue;
        }
        if (ch === '"') return null;
        bytes.push(...Buffer.from(ch, "utf8"));
        if (ch !== " ") lastSignificant = bytes.length;
        i++;
      }
      value = Buffer.from(bytes.slice(0, lastSignificant)).toString("utf8");
    }
    rdn.push(hex ? { type, value, hex } : { type, value });
    if (i >= n) break;
    const sep = text[i];
    i++;
    if (sep === "+") continue;
    rdns.push(rdn);
    rdn = [];
    if (i >= n) return null; // a trailing separator
  }
  if (rdn.length) rdns.push(rdn);
  return rdns;
}

/**
 * A DN in a form that compares equal for the same entry however it was written: types and
 * values lower-cased (group and user DNs use case-insensitive attributes in practice),
 * escapes unified, spaces around separators dropped, multi-valued RDNs sorted.
 * null when the text is not a DN.
 */
export function normalizeDn(dn: string): string | null {
  const rdns = parseDn(dn);
  if (!rdns) return null;
  return rdns
    .map((rdn) =>
      rdn
        .map(({ type, value, hex }) => `${type.toLowerCase()}=${hex ? value : escapeDnValue(value.toLowerCase())}`)
        .sort()
        .join("+"),
    )
    .join(",");
}
