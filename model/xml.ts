/**
 * A small, bounded XML reader and writer for NETCONF: the Junos NETCONF driver reads the
 * switch's replies with it, the lab's NETCONF face the clients' requests. Elements,
 * attributes, text, CDATA, the five predefined entities and character references; the
 * XML declaration, comments and processing instructions are skipped; a DOCTYPE is
 * refused (no entity expansion at all). Names keep their prefix apart from the local
 * name, so callers match on the local name whatever prefix a client chose (ncclient
 * sends `nc:rpc`, Junos `rpc-reply` with a default namespace).
 */

export interface XmlElement {
  /** local name, without the prefix */
  name: string;
  prefix: string;
  /** attributes by their name as written (prefix included), values unescaped */
  attrs: Record<string, string>;
  children: XmlElement[];
  /** the element's own text (its text nodes joined), unescaped */
  text: string;
}

export class XmlSyntaxError extends Error {
  constructor(message: string) {
    super(`malformed XML: ${message}`);
    this.name = "XmlSyntaxError";
  }
}

export interface XmlLimits {
  /** deepest element nesting */
  maxDepth?: number;
  /** most elements in one document */
  maxElements?: number;
}

const NAME = /^[A-Za-z_][\w.-]*(:[A-Za-z_][\w.-]*)?/;
const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

function unescape(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&([^;&\s]{1,10});/g, (whole, ref: string) => {
    if (ref in ENTITIES) return ENTITIES[ref];
    const code = /^#x([0-9a-fA-F]+)$/.exec(ref)
      ? parseInt(ref.slice(2), 16)
      : /^#(\d+)$/.test(ref)
        ? parseInt(ref.slice(1), 10)
        : NaN;
    if (!Number.isFinite(code) || code > 0x10ffff) throw new XmlSyntaxError(`unknown reference ${whole}`);
    return String.fromCodePoint(code);
  });
}

function splitName(qname: string): { prefix: string; name: string } {
  const i = qname.indexOf(":");
  return i < 0 ? { prefix: "", name: qname } : { prefix: qname.slice(0, i), name: qname.slice(i + 1) };
}

/** Parses one document; its root element. Throws XmlSyntaxError on anything malformed or over the limits. */
export function parseXml(input: string, limits: XmlLimits = {}): XmlElement {
  const maxDepth = limits.maxDepth ?? 64;
  const maxElements = limits.maxElements ?? 1_000_000;
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  let count = 0;
  let i = 0;
  const n = input.length;
  while (i < n) {
    const lt = input.indexOf("<", i);
    const textEnd = lt < 0 ? n : lt;
    if (textEnd > i) {
      const raw = input.slice(i, textEnd);
      if (stack.length > 0) stack[stack.length - 1].text += unescape(raw);
      else if (raw.trim()) throw new XmlSyntaxError("text outside the root element");
    }
    if (lt < 0) break;
    i = lt;
    if (input.startsWith("<?", i)) {
      const end = input.indexOf("?>", i + 2);
      if (end < 0) throw new XmlSyntaxError("unterminated processing instruction");
      i = end + 2;
    } else if (input.startsWith("<!--", i)) {
      const end = input.indexOf("-->", i + 4);
      if (end < 0) throw new XmlSyntaxError("unterminated comment");
      i = end + 3;
    } else if (input.startsWith("<![CDATA[", i)) {
      const end = input.indexOf("]]>", i + 9);
      if (end < 0) throw new XmlSyntaxError("unterminated CDATA section");
      if (stack.length === 0) throw new XmlSyntaxError("CDATA outside the root element");
      stack[stack.length - 1].text += input.slice(i + 9, end);
      i = end + 3;
    } else if (input.startsWith("<!", i)) {
      throw new XmlSyntaxError("document type declarations are not accepted");
    } else if (input.startsWith("</", i)) {
      const m = NAME.exec(input.slice(i + 2, i + 2 + 256));
      if (!m) throw new XmlSyntaxError("bad end tag");
      const close = input.indexOf(">", i + 2 + m[0].length);
      if (close < 0 || input.slice(i + 2 + m[0].length, close).trim()) throw new XmlSyntaxError("bad end tag");
      const open = stack.pop();
      const { prefix, name } = splitName(m[0]);
      if (!open || open.name !== name || open.prefix !== prefix)
        throw new XmlSyntaxError(`end tag </${m[0]}> does not match its start tag`);
      i = close + 1;
      if (stack.length === 0) root = root ?? open;
    } else {
      const m = NAME.exec(input.slice(i + 1, i + 1 + 256));
      if (!m) throw new XmlSyntaxError("bad start tag");
      if (stack.length === 0 && root) throw new XmlSyntaxError("a second root element");
      const element: XmlElement = { ...splitName(m[0]), attrs: {}, children: [], text: "" };
      if (++count > maxElements) throw new XmlSyntaxError(`more than ${maxElements} elements`);
      let j = i + 1 + m[0].length;
      let selfClosing = false;
      for (;;) {
        while (j < n && /\s/.test(input[j])) j++;
        if (j >= n) throw new XmlSyntaxError("unterminated start tag");
        if (input[j] === ">") {
          j++;
          break;
        }
        if (input.startsWith("/>", j)) {
          selfClosing = true;
          j += 2;
          break;
        }
        const a = NAME.exec(input.slice(j, j + 256));
        if (!a) throw new XmlSyntaxError(`bad attribute in <${m[0]}>`);
        j += a[0].length;
        while (j < n && /\s/.test(input[j])) j++;
        if (input[j] !== "=") throw new XmlSyntaxError(`attribute ${a[0]} has no value`);
        j++;
        while (j < n && /\s/.test(input[j])) j++;
        const quote = input[j];
        if (quote !== '"' && quote !== "'") throw new XmlSyntaxError(`attribute ${a[0]} is not quoted`);
        const end = input.indexOf(quote, j + 1);
        if (end < 0) throw new XmlSyntaxError("unterminated attribute value");
        const value = input.slice(j + 1, end);
        if (value.includes("<")) throw new XmlSyntaxError(`"<" in the value of ${a[0]}`);
        if (a[0] in element.attrs) throw new XmlSyntaxError(`attribute ${a[0]} given twice`);
        element.attrs[a[0]] = unescape(value);
        j = end + 1;
      }
      if (stack.length > 0) stack[stack.length - 1].children.push(element);
      if (selfClosing) {
        if (stack.length === 0) root = element;
      } else {
        if (stack.length >= maxDepth) throw new XmlSyntaxError(`nested deeper than ${maxDepth}`);
        stack.push(element);
      }
      i = j;
    }
  }
  if (stack.length > 0) throw new XmlSyntaxError(`<${stack[stack.length - 1].name}> is not closed`);
  if (!root) throw new XmlSyntaxError("no root element");
  return root;
}

/** Text for an element's content or an attribute value, escaped. */
export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) =>
    c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === "&" ? "&amp;" : c === '"' ? "&quot;" : "&apos;",
  );
}

/** `<name>text</name>` with the text escaped */
export function textElement(name: string, text: string | number): string {
  return `<${name}>${escapeXml(String(text))}</${name}>`;
}

/** the first child element with this local name */
export function childOf(el: XmlElement | undefined, name: string): XmlElement | undefined {
  return el?.children.find((c) => c.name === name);
}

/** every child element with this local name */
export function childrenOf(el: XmlElement | undefined, name: string): XmlElement[] {
  return el ? el.children.filter((c) => c.name === name) : [];
}

/** the trimmed text of the first child with this local name, "" when absent */
export function childText(el: XmlElement | undefined, name: string): string {
  return childOf(el, name)?.text.trim() ?? "";
}

/** every descendant element (depth first) with this local name */
export function descendantsOf(el: XmlElement, name: string, out: XmlElement[] = []): XmlElement[] {
  for (const c of el.children) {
    if (c.name === name) out.push(c);
    descendantsOf(c, name, out);
  }
  return out;
}
