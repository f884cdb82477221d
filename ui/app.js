// The web UI's entry: the path decides the page; every page draws into <main>.
import { h, show } from "./dom.js";
import { sessionEnded } from "./api.js";
import { menuPage } from "./menu.js";
import { devicePage } from "./device.js";
import { vlansPage } from "./vlans.js";
import { auditPage } from "./audit.js";
import { tokensPage } from "./tokens.js";

const main = document.getElementById("main");

/** a page that could not be drawn: what went wrong, in words */
export function pageError(title, err) {
  document.title = `${title} · switchdesk`;
  show(
    main,
    h("h1", {}, title),
    h("p", { class: "error", role: "alert" }, err?.message ?? String(err)),
    h("p", {}, h("a", { href: "/ui/" }, "Back to the devices")),
  );
  if (err?.code === "not_authenticated") sessionEnded(); // drawn over: say it again
}

const routes = [
  [/^\/ui\/$/, () => menuPage(main)],
  [/^\/ui\/switch\/(\d+)\/(\d+)\/$/, (m) => devicePage(main, m[1], m[2], false)],
  [/^\/ui\/switch\/(\d+)\/(\d+)\/details\/$/, (m) => devicePage(main, m[1], m[2], true)],
  [/^\/ui\/switch\/(\d+)\/(\d+)\/vlans\/$/, (m) => vlansPage(main, m[1], m[2])],
  [/^\/ui\/audit\/$/, () => auditPage(main)],
  [/^\/ui\/tokens\/$/, () => tokensPage(main)],
];

/** the menu entry of the section shown is marked as the current page */
function markCurrent(path) {
  const links = [...document.querySelectorAll("header.top nav a:not(.brand)")];
  const section = path.startsWith("/ui/tokens/")
    ? "/ui/tokens/"
    : path.startsWith("/ui/audit/")
      ? "/ui/audit/"
      : "/ui/";
  for (const a of links) if (a.getAttribute("href") === section) a.setAttribute("aria-current", "page");
}

async function route() {
  const path = location.pathname;
  markCurrent(path);
  for (const [re, draw] of routes) {
    const m = re.exec(path);
    if (!m) continue;
    try {
      await draw(m);
    } catch (err) {
      pageError("Something went wrong", err);
    }
    return;
  }
  pageError("Page not found", new Error(`There is no page at ${path}.`));
}

route();
