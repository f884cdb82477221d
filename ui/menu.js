// The menu: the groups and devices the user may see, with a search.
import { api } from "./api.js";
import { h, show, message } from "./dom.js";
import { findBox } from "./find.js";

const deviceUrl = (gid, sid) => `/ui/switch/${gid}/${sid}/`;

export async function menuPage(main) {
  document.title = "Devices · switchdesk";
  const menu = await api("/api/switches/");
  const groups = Object.entries(menu.groups ?? {});
  const status = h("p", { role: "status", class: "muted" });
  const input = h("input", {
    type: "search",
    name: "q",
    id: "device-search",
    autocomplete: "off",
    placeholder: "name, hostname or address",
  });
  const items = [];
  const sections = groups.map(([gid, g]) => {
    const lis = Object.entries(g.members ?? {}).map(([sid, d]) => {
      const li = h(
        "li",
        { "data-search": [d.name, d.hostname, d.primary_ipv4, d.description].join(" ").toLowerCase() },
        h("a", { href: deviceUrl(gid, sid) }, d.name),
        h("div", { class: "muted" }, [d.hostname, d.primary_ipv4].filter(Boolean).join(" · ")),
        d.description ? h("div", {}, d.description) : null,
        d.read_only ? h("div", { class: "muted" }, "read-only") : null,
      );
      items.push(li);
      return li;
    });
    return h(
      "section",
      { "aria-labelledby": `group-${gid}` },
      h("h2", { id: `group-${gid}` }, g.display_name || g.name, g.read_only ? " (read-only)" : ""),
      g.description ? h("p", { class: "muted" }, g.description) : null,
      h("ul", { class: "devices" }, lis),
    );
  });

  const filter = () => {
    const q = input.value.trim().toLowerCase();
    let shown = 0;
    for (const li of items) {
      li.hidden = q !== "" && !li.dataset.search.includes(q);
      if (!li.hidden) shown++;
    }
    for (const s of sections) s.hidden = [...s.querySelectorAll("li")].every((li) => li.hidden);
    message(status, "plain", q ? `${shown} of ${items.length} devices match.` : `${items.length} devices.`);
  };
  input.addEventListener("input", filter);

  // Enter: the API's exact search by name or hostname opens the device
  const form = h(
    "form",
    {
      class: "search toolbar",
      role: "search",
      onsubmit: async (ev) => {
        ev.preventDefault();
        const q = input.value.trim();
        if (!q) return;
        try {
          const found = await api(`/api/switches/search/${encodeURIComponent(q)}/`);
          const [gid] = Object.keys(found.groups ?? {});
          location.assign(deviceUrl(gid, found.switch.id));
        } catch (err) {
          message(status, "error", err.message);
          status.setAttribute("role", "alert");
        }
      },
    },
    h("label", { for: "device-search" }, "Find a device"),
    input,
    h("button", { type: "submit" }, "Open"),
  );
  show(
    main,
    h("h1", {}, "Devices"),
    form,
    status,
    groups.length ? findBox(menu) : null,
    groups.length ? sections : h("p", {}, "You have no devices to manage. An administrator adds you to a group."),
  );
  filter();
}
