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
