/**
 * NETCONF message framing over SSH (RFC 6242). Before and during the hello exchange every
 * message ends with the end-of-message marker `]]>]]>` (base:1.0, RFC 4742); once both
 * sides have offered base:1.1, every later message travels in chunks (`\n#<len>\n<data>`
 * ... `\n##\n`). The decoder takes bytes as they arrive and gives whole messages one at a
 * time in the framing in force, so the caller can switch framing right after the hello
 * even when the next message arrived in the same packet. Every message is bounded.
 */

export type Framing = "eom" | "chunked";

export const END_OF_MESSAGE = "]]>]]>";
const EOM = Buffer.from(END_OF_MESSAGE);
/** RFC 6242: a chunk size is 1..4294967295 */
const MAX_CHUNK_SIZE = 4294967295;

const isSpace = (b: number) => b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a;

export class FramingError extends Error {
  constructor(message: string) {
    super(`NETCONF framing: ${message}`);
    this.name = "FramingError";
  }
}

export class FrameDecoder {
  private buffer: Buffer = Buffer.alloc(0);
  /** chunked: the parts of the message being assembled, and their size */
  private parts: Buffer[] = [];
  private partBytes = 0;
  private mode: Framing = "eom";

  constructor(private readonly maxMessageBytes: number) {
    if (!Number.isInteger(maxMessageBytes) || maxMessageBytes < 1)
      throw new RangeError("maxMessageBytes must be a whole number >= 1");
  }

  get framing(): Framing {
    return this.mode;
  }

  /** the framing of the next message (switch to "chunked" after a hello that agreed on base:1.1) */
  setFraming(mode: Framing): void {
    this.mode = mode;
  }

  /** bytes received */
  push(data: Buffer): void {
    this.buffer = this.buffer.length === 0 ? data : Buffer.concat([this.buffer, data]);
    // unframed bytes beyond any message's bound: the peer does not frame as agreed
    const slack = this.mode === "eom" ? EOM.length : 16;
    if (this.buffer.length > this.maxMessageBytes + slack && this.mode === "eom" && this.buffer.indexOf(EOM) < 0)
      throw new FramingError(`no end-of-message marker within ${this.maxMessageBytes} bytes`);
  }

  /** the next whole message, or null until more bytes arrive */
  next(): string | null {
    return this.mode === "eom" ? this.nextEom() : this.nextChunked();
  }

  private nextEom(): string | null {
    const at = this.buffer.indexOf(EOM);
    if (at < 0) return null;
    if (at > this.maxMessageBytes) throw new FramingError(`a message is longer than ${this.maxMessageBytes} bytes`);
    const message = this.buffer.subarray(0, at).toString("utf8");
    this.buffer = this.buffer.subarray(at + EOM.length);
    return message;
  }

  private nextChunked(): string | null {
    for (;;) {
      // before a message's first chunk, whitespace is skipped (a peer may end the hello's
      // marker with a line break); "\n#" always starts a chunk
      if (this.parts.length === 0) {
        let skip = 0;
        while (skip < this.buffer.length && isSpace(this.buffer[skip])) {
          if (this.buffer[skip] === 0x0a && skip + 1 < this.buffer.length && this.buffer[skip + 1] === 0x23) break;
          if (this.buffer[skip] === 0x0a && skip + 1 === this.buffer.length) break;
          skip++;
        }
        if (skip > 0) this.buffer = this.buffer.subarray(skip);
      }
      if (this.buffer.length < 3) return null;
      if (this.buffer[0] !== 0x0a || this.buffer[1] !== 0x23)
        throw new FramingError("a chunk does not start with \\n#");
      if (this.buffer[2] === 0x23) {
        // end of chunks: "\n##\n"
        if (this.buffer.length < 4) return null;
        if (this.buffer[3] !== 0x0a) throw new FramingError("bad end-of-chunks marker");
        if (this.parts.length === 0) throw new FramingError("end-of-chunks marker without a chunk");
        const message = Buffer.concat(this.parts).toString("utf8");
        this.parts = [];
        this.partBytes = 0;
        this.buffer = this.buffer.subarray(4);
        return message;
      }
      const newline = this.buffer.indexOf(0x0a, 2);
      if (newline < 0) {
        if (this.buffer.length > 12) throw new FramingError("a chunk size longer than 10 digits");
        return null;
      }
      const digits = this.buffer.subarray(2, newline).toString("latin1");
      if (!/^[1-9][0-9]{0,9}$/.test(digits)) throw new FramingError(`bad chunk size "${digits.slice(0, 12)}"`);
      const size = Number(digits);
      if (size > MAX_CHUNK_SIZE) throw new FramingError("a chunk size over 4294967295");
      if (this.partBytes + size > this.maxMessageBytes)
        throw new FramingError(`a message is longer than ${this.maxMessageBytes} bytes`);
      if (this.buffer.length < newline + 1 + size) return null;
      this.parts.push(Buffer.from(this.buffer.subarray(newline + 1, newline + 1 + size)));
      this.partBytes += size;
      this.buffer = this.buffer.subarray(newline + 1 + size);
    }
  }
}

/** One message framed for sending; chunked messages in chunks of at most `chunkBytes`. */
export function encodeFrame(message: string, framing: Framing, chunkBytes = 65536): Buffer {
  const body = Buffer.from(message, "utf8");
  if (framing === "eom") return Buffer.concat([body, EOM]);
  if (body.length === 0) throw new RangeError("a chunked message cannot be empty");
  const out: Buffer[] = [];
  for (let at = 0; at < body.length; at += chunkBytes) {
    const part = body.subarray(at, Math.min(body.length, at + chunkBytes));
    out.push(Buffer.from(`\n#${part.length}\n`, "latin1"), part);
  }
  out.push(Buffer.from("\n##\n", "latin1"));
  return Buffer.concat(out);
}
