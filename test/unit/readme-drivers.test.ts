/**
 * The README's driver table is the registry's: `switchdesk drivers` prints it, and the
 * README carries the same text between its markers (a new or changed driver updates both).
 */
import fs from "node:fs";
import path from "node:path";
import { driverTable } from "../../app/driver-table";
import { main } from "../../server/cli";
import { FAMILIES } from "../../drivers/families";

const readme = fs.readFileSync(path.resolve(__dirname, "../../README.md"), "utf8");

test("the README's table between its markers is what `switchdesk drivers` prints", async () => {
  const m = /<!-- drivers:begin -->\n([\s\S]*?)\n<!-- drivers:end -->/.exec(readme);
  expect(m).not.toBeNull();
  const lines: string[] = [];
  expect(await main(["drivers"], (l) => lines.push(l))).toBe(0);
  expect(lines.join("\n")).toBe(driverTable());
  // on a mismatch: paste the output of `npx switchdesk drivers` between the markers
  expect(m![1]).toBe(driverTable());
});

test("the table has a row for every registered driver, with what it can change", () => {
  const rows = driverTable().split("\n").slice(2);
  expect(rows.map((r) => /^\| `([^`]+)`/.exec(r)?.[1])).toEqual(FAMILIES.map((f) => f.name));
  const linux = rows.find((r) => r.startsWith("| `linux_host`"))!;
  expect(linux).toContain("| state, description;");
  expect(linux).not.toMatch(/VLAN|PoE|save/);
  expect(rows.find((r) => r.startsWith("| `ciscosb`"))).toContain("`1.3.6.1.4.1.9.6.1`");
});
