/** Where the project's own files are, from source (ts) and from the build (dist/). */
import fs from "node:fs";
import path from "node:path";

let root: string | null = null;

export function projectRoot(): string {
  if (root) return root;
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    if (fs.existsSync(path.join(dir, "package.json")) && fs.existsSync(path.join(dir, "spec"))) return (root = dir);
    dir = path.dirname(dir);
  }
  throw new Error("cannot find the project root (package.json beside spec/)");
}

export function packageVersion(): string {
  return JSON.parse(fs.readFileSync(path.join(projectRoot(), "package.json"), "utf8")).version;
}
