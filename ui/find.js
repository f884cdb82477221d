// "Where is it plugged in?" on the devices page: a MAC or IP address looked for on the
// devices the user may see (GET /api/switches/find/), optionally in one group. The answer
// lists each port the address was seen on, edge ports first, and the devices that did not
// answer in time.
import { api } from "./api.js";
import { h, show, message } from "./dom.js";

const deviceUrl = (gid, sid) => `/ui/switch/${gid}/${sid}/`;

const COLUMNS = ["Port", "Group", "Device", "Interface", "VLAN", "MAC", "IP", "Why"];

function why(m) {
  if (m.port === "edge") return "edge port";
  if (m.uplink_reason === "lldp_neighbor")
    return m.neighbors.length ? `uplink to ${m.neighbors.join(", ")}` : "uplink (LLDP neighbour)";
  return `uplink (${m.macs_on_port} MACs on the port)`;
}

function matchRow(m) {
  const cells = [
    h("strong", {}, m.port === "edge" ? "Edge" : "Uplink"),
    m.group,
    h("a", { href: deviceUrl(m.group_id, m.switch_id) }, m.switch),
    [m.interface_name, m.description ? h("div", { class: "muted" }, m.description) : null],
    String(m.vlan || ""),
    m.mac,
    [...m.ipv4, ...m.ipv6].join(", "),
    why(m),
  ];
  return h(
    "tr",
    { "data-port": m.port },
    cells.map((c, i) => h("td", { "data-label": COLUMNS[i] }, c)),
  );
}

/** the "find a device" box: a form, its status line and its answer */
export function findBox(menu) {
  const groups = Object.entries(menu.groups ?? {});
  const input = h("input", {
    type: "search",
    name: "address",
    id: "find-address",
    autocomplete: "off",
    spellcheck: "false",
    placeholder: "aa:bb:cc:dd:ee:ff or 10.1.2.3",
  });
  const group = h(
    "select",
    { name: "group", id: "find-group" },
    h("option", { value: "" }, "all my groups"),
    groups.map(([gid, g]) => h("option", { value: gid }, g.display_name || g.name)),
  );
  const button = h("button", { type: "submit" }, "Find");
  const status = h("p", { "aria-live": "polite", class: "muted", id: "find-status" });
  const answer = h("div", { id: "find-answer" });

  const run = async (ev) => {
    ev.preventDefault();
    const address = input.value.trim();
    if (!address) {
      message(status, "error", "Give a MAC address (aa:bb:cc:dd:ee:ff) or an IP address.");
      return;
    }
    const query = new URLSearchParams({ address });
    if (group.value) query.set("group", group.value);
    button.disabled = true;
    answer.replaceChildren();
    message(status, "plain", "Searching the switches…");
    status.removeAttribute("role");
    try {
      const r = await api(`/api/switches/find/?${query}`);
      const edges = r.matches.filter((m) => m.port === "edge").length;
      const seen = r.kind === "mac" || r.macs.length ? "" : " No switch knows this IP address in its ARP table.";
      message(
        status,
        r.matches.length ? "ok" : "plain",
        `${r.matches.length ? `Found on ${r.matches.length} port${r.matches.length === 1 ? "" : "s"} (${edges} edge)` : "Not found"}` +
          ` on ${r.answered} of ${r.searched} switches in ${(r.elapsed_ms / 1000).toFixed(1)} s.${seen}`,
      );
      show(
        answer,
        r.matches.length
          ? h(
              "table",
              { class: "cards find-results" },
              h(
                "thead",
                {},
                h(
                  "tr",
                  {},
                  COLUMNS.map((c) => h("th", { scope: "col" }, c)),
                ),
              ),
              h("tbody", {}, r.matches.map(matchRow)),
            )
          : null,
        r.not_answered.length
          ? h(
              "div",
              { class: "not-answered" },
              h("p", {}, h("strong", {}, "Did not answer")),
              h(
                "ul",
                { class: "plain" },
                r.not_answered.map((n) =>
                  h(
                    "li",
                    { "data-code": n.code },
                    h("a", { href: deviceUrl(n.group_id, n.switch_id) }, n.switch),
                    `: ${n.reason}`,
                  ),
                ),
              ),
            )
          : null,
      );
    } catch (err) {
      message(status, "error", err.message);
      status.setAttribute("role", "alert");
    } finally {
      button.disabled = false;
    }
  };

  // a fieldset with its legend, and a polite live region: the page's one heading list and
  // its one status line stay the menu's
  return h(
    "form",
    {
      class: "panel find",
      role: "search",
      "aria-label": "Where is it plugged in?",
      onsubmit: run,
    },
    h(
      "fieldset",
      {},
      h("legend", {}, "Where is it plugged in?"),
      h(
        "div",
        { class: "search toolbar" },
        h("label", { for: "find-address" }, "Find a device by MAC or IP address"),
        input,
        h("label", { for: "find-group" }, "in"),
        group,
        button,
      ),
      status,
    ),
    answer,
  );
}
