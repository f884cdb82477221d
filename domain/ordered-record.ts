/**
 * A JSON object whose keys keep the order they were given in, even when they look like
 * integers. Plain JavaScript objects always list integer-like keys ("35", "12") in
 * ascending numeric order, but the contract sorts the menu's groups and members by
 * name, and the Python clients of OpenL2M read them in that order. A frozen object behind
 * a Proxy that only reorders its key list keeps JSON.stringify, Object.keys and
 * property reads working as usual.
 */
export function orderedRecord<T>(entries: Iterable<readonly [string, T]>): Record<string, T> {
  const target: Record<string, T> = {};
  const order: string[] = [];
  for (const [key, value] of entries) {
    if (!Object.prototype.hasOwnProperty.call(target, key)) order.push(key);
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  }
  Object.freeze(target);
  return new Proxy(target, { ownKeys: () => [...order] });
}

/**
 * The JSON text of an object with these keys in this order, each value given as its JSON
 * text already: what JSON.stringify(orderedRecord(...)) writes, without a Proxy to go
 * through for every key (the menu's 2,000 members, docs/performance.md "The menu").
 */
export function orderedJson(entries: Iterable<readonly [string, string]>): string {
  // a key given twice keeps its first place and its last value, as orderedRecord does
  const texts = new Map<string, string>(entries);
  const parts: string[] = [];
  for (const [key, text] of texts) parts.push(`${JSON.stringify(key)}:${text}`);
  return `{${parts.join(",")}}`;
}
