/**
 * The lab NETCONF face's own message framing (RFC 6242), written apart from the driver's
 * so that each side is checked against another implementation (and PyEZ): messages end
 * with `]]>]]>` until both hellos offered base:1.1, then travel in chunks. Bounded: a
 * client that sends more than `maxBytes` without ending a message is cut off.
 */

export type LabFraming = "eom" | "chunked";

const MARK = "]]>]]>";

export class LabFrameReader {
  private pending = Buffer.alloc(0);
  private chunks: Buffer[] = [];
  private size = 0;
  framing: LabFraming = "eom";

  constructor(private readonly maxBytes: number) {}

  /** adds bytes; returns false when the peer broke the framing or the bound */
  add(data: Buffer): boolean {
    this.pending = Buffer.concat([this.pending, data]);
    return this.pending.length <= this.maxBytes + 64;
  }

  /** the next message, null until one is complete; throws on broken framing */
  take(): string | null {
    if (this.framing === "eom") {
      const at = this.pending.indexOf(MARK);
      if (at < 0) return null;
      const text = this.pending.subarray(0, at).toString("utf8");
      this.pending = this.pending.subarray(at + MARK.length);
      return text;
    }
    for (;;) {
      const text = this.pending.toString("latin1", 0, Math.min(this.pending.length, 16));
      if (this.chunks.length === 0) {
        const lead = /^[\r\n\t ]*(?=\n#)/.exec(text);
        if (lead && lead[0].length > 0) {
          this.pending = this.pending.subarray(lead[0].length);
          continue;
        }
      }
      if (text.startsWith("\n##\n")) {
        if (this.chunks.length === 0) throw new Error("end of chunks before any chunk");
        const message = Buffer.concat(this.chunks).toString("utf8");
        this.chunks = [];
        this.size = 0;
        this.pending = this.pending.subarray(4);
        return message;
      }
      const head = /^\n#([1-9]\d{0,9})\n/.exec(text);
      if (!head) {
        if (this.pending.length >= 13 || (this.pending.length >= 2 && !text.startsWith("\n#")))
          throw new Error("bad chunk header");
        return null;
      }
      const length = Number(head[1]);
      if (this.size + length > this.maxBytes) throw new Error("message too long");
      const start = head[0].length;
      if (this.pending.length < start + length) return null;
      this.chunks.push(Buffer.from(this.pending.subarray(start, start + length)));
      this.size += length;
      this.pending = this.pending.subarray(start + length);
    }
  }
}

export function frame(message: string, framing: LabFraming): Buffer {
  if (framing === "eom") return Buffer.from(message + MARK, "utf8");
  const body = Buffer.from(message, "utf8");
  return Buffer.concat([Buffer.from(`\n#${body.length}\n`, "latin1"), body, Buffer.from("\n##\n", "latin1")]);
}
