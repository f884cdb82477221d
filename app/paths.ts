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
  return versionOf(path.join(projectRoot(), "package.json"));
}

/** The "version" of a package.json file; throws when it cannot be read or names none. */
export function versionOf(packageJson: string): string {
  const pkg: unknown = JSON.parse(fs.readFileSync(packageJson, "utf8"));
  if (typeof pkg === "object" && pkg !== null && "version" in pkg && typeof pkg.version === "string")
    return pkg.version;
  throw new Error(`${packageJson} has no version`);
}
