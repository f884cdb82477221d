/** The one check of redirect targets (domain/urls.ts sameSitePath): what passes, what does not. */
import { sameSitePath } from "../../domain/urls";

describe("redirect targets", () => {
  it.each([
    "/",
    "/api/",
    "/ui/switch/3/4/details/",
    "/ui/audit/?outcome=refused&page=2",
    "/api/switches/search/core%20sw/",
    "/a%2Fb/",
    "/ui/#top",
    "/https:x/",
    "/api/?next=//elsewhere",
  ])("passes the normal path %j unchanged", (path) => expect(sameSitePath(path)).toBe(path));

  it.each([
    "",
    "api/",
    "//evil.example",
    "///evil",
    "/x//evil",
    "/\\evil",
    "\\\\evil",
    "/.",
    "/./x/",
    "/x/../",
    "/..//evil",
    "/.//x//evil",
    "/%2F%2Fevil",
    "/%2Fevil",
    "/%5Cevil",
    "/%2e%2e/x",
    "/%2E/",
    "/.%2e/",
    "/%09/evil",
    "/%00",
    "/%7f/",
    "/%C2%85/",
    "/%E0%A4%A/",
    "/\t/evil",
    "/ /evil",
    "\t/x/",
    "/x\n",
    "/\u00e4/",
    "/\uff0f/evil",
    "https://evil.example/",
    "https:evil",
    "javascript:alert(1)",
    `/${"a".repeat(2048)}`,
  ])("refuses %j", (path) => expect(sameSitePath(path)).toBeNull());

  it("refuses what is not text", () => {
    for (const v of [undefined, null, 42, ["/ui/"], { path: "/ui/" }]) expect(sameSitePath(v)).toBeNull();
  });
});
