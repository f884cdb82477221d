/**
 * Natural order for interface ids and names: digit runs compare as numbers, so "2" < "10"
 * and "1/1/2" < "1/1/10", the way people number ports. Letters compare without regard
 * to case first; exact text breaks ties so the order is total and repeatable.
 */

const CHUNKS = /(\d+)|(\D+)/g;

function chunks(text: string): string[] {
  return text.match(CHUNKS) ?? [];
}

function isDigits(chunk: string): boolean {
  const first = chunk.charCodeAt(0);
  return first >= 48 && first <= 57;
}

/** Digit runs may exceed Number's exact range (serial-like ids), so compare as text. */
function compareDigitRuns(a: string, b: string): number {
  const x = a.replace(/^0+(?=\d)/, "");
  const y = b.replace(/^0+(?=\d)/, "");
  if (x.length !== y.length) return x.length - y.length;
  return x < y ? -1 : x > y ? 1 : 0;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** the order of two texts from their chunks (each text split once, however often it is compared) */
function compareChunks(left: string[], right: string[], a: string, b: string): number {
  const shared = Math.min(left.length, right.length);
  for (let i = 0; i < shared; i++) {
    const l = left[i];
    const r = right[i];
    const lDigits = isDigits(l);
    const rDigits = isDigits(r);
    let order: number;
    if (lDigits && rDigits) order = compareDigitRuns(l, r);
    else if (lDigits !== rDigits)
      order = lDigits ? -1 : 1; // numbers before words
    else order = compareText(l.toLowerCase(), r.toLowerCase());
    if (order !== 0) return order;
  }
  if (left.length !== right.length) return left.length - right.length;
  return compareText(a, b);
}

export function naturalCompare(a: string, b: string): number {
  return compareChunks(chunks(a), chunks(b), a, b);
}

/** A sorted copy; the input stays as it was. Each key is read and split once, not once per comparison. */
export function naturalSortBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const keyed = items.map((item) => {
    const text = key(item);
    return { item, text, parts: chunks(text) };
  });
  keyed.sort((x, y) => compareChunks(x.parts, y.parts, x.text, y.text));
  return keyed.map((k) => k.item);
}
