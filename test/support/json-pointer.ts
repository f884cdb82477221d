/** JSON pointers into the spec document, for the tests that read it. */

/** Follows a local JSON pointer such as "#/components/schemas/Error"; undefined when absent. */
export function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object" || !(key in node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** One reference token of a pointer, escaped ("/" and "~" as JSON pointers write them). */
export const pointerToken = (s: string): string => s.replace(/~/g, "~0").replace(/\//g, "~1");
