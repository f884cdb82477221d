/**
 * The layers import one way (server -> handlers -> app -> domain / drivers / db, with
 * model, mib and generated below): dependency-cruiser checks the tree against
 * .dependency-cruiser.cjs, and is shown to catch a backward import in a scratch tree.
 */
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(__dirname, "../..");
const depcruise = path.join(root, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs");
const LAYERS = ["server", "handlers", "app", "domain", "drivers", "db", "lab", "mib", "model", "generated"];

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/**
 * dependency-cruiser's own cache of the project tree's result, by the files' contents (a
 * changed, added or removed file or config is cruised again): one folder per checkout in
 * the temporary folder, so that checkouts side by side do not take turns overwriting it
 */
const cache = path.join(
  os.tmpdir(),
  `switchdesk-depcruise-${crypto.createHash("sha256").update(root).digest("hex").slice(0, 12)}`,
);

function cruise(cwd: string, dirs: string[], config: string, tsConfig?: string, cached = false): Violation[] {
  const args = [
    depcruise,
    "--config",
    config,
    "--output-type",
    "json",
    ...(tsConfig ? ["--ts-config", tsConfig] : []),
    ...(cached ? ["--cache", cache, "--cache-strategy", "content"] : []),
    ...dirs,
  ];
  let out: string;
  try {
    out = execFileSync(process.execPath, args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  } catch (e) {
    // exits non-zero when there are violations; the JSON is still on stdout
    out = (e as { stdout?: string }).stdout ?? "";
    if (!out) throw e;
  }
  return JSON.parse(out).summary.violations as Violation[];
}

describe("layers import one way", () => {
  it("the tree has no backward import and no import cycle", () => {
    const violations = cruise(root, LAYERS, ".dependency-cruiser.cjs", undefined, true);
    expect(violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)).toEqual([]);
  }, 60_000);

  it("a backward import (domain -> app, drivers -> db) and a cycle are caught", () => {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "switchdesk-layers-"));
    try {
      const write = (file: string, text: string) => {
        fs.mkdirSync(path.dirname(path.join(scratch, file)), { recursive: true });
        fs.writeFileSync(path.join(scratch, file), text);
      };
      write("app/service.ts", "export const service = 1;\n");
      write("domain/rule.ts", 'import { service } from "../app/service";\nexport const rule = service;\n');
      write("db/repo.ts", "export const repo = 1;\n");
      write("drivers/driver.ts", 'import { repo } from "../db/repo";\nexport const driver = repo;\n');
      write("model/a.ts", 'import { b } from "./b";\nexport const a = () => b;\n');
      write("model/b.ts", 'import { a } from "./a";\nexport const b = () => a;\n');
      write("tsconfig.json", JSON.stringify({ compilerOptions: { module: "commonjs", target: "ES2022" } }));
      fs.copyFileSync(path.join(root, ".dependency-cruiser.cjs"), path.join(scratch, ".dependency-cruiser.cjs"));
      const found = cruise(
        scratch,
        ["app", "domain", "db", "drivers", "model"],
        ".dependency-cruiser.cjs",
        "tsconfig.json",
      )
        .map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)
        .sort();
      expect(found).toEqual([
        "domain-imports-one-way: domain/rule.ts -> app/service.ts",
        "drivers-imports-one-way: drivers/driver.ts -> db/repo.ts",
        "no-circular: model/a.ts -> model/b.ts",
      ]);
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  }, 60_000);
});
