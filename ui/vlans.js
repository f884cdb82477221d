// A device's VLANs: the list, and add / rename / delete for users allowed to.
import { api, devicePath } from "./api.js";
import { h, show, message, sure } from "./dom.js";

export async function vlansPage(main, g, s) {
  const base = devicePath(g, s);
  show(main, h("p", { class: "loading", role: "status" }, "Reading the device…"));
  const [menu, dev] = await Promise.all([api("/api/switches/"), api(base)]);
  const sw = dev.switch;
  const user = menu.user;
  const su = document.body.dataset.superuser === "true";
  const writable = !sw.read_only && !user.read_only;
  const may = {
    add: writable && sw.edit_vlans && (su || user.vlan_edit),
    rename: writable && sw.change_vlan_name && (su || user.vlan_edit),
    remove: writable && sw.edit_vlans && su,
  };
  document.title = `VLANs of ${sw.name} · switchdesk`;
  const status = h("p", { role: "status", id: "vlan-status" });

  async function act(path, body, question) {
    if (question && !sure(question)) return message(status, "plain", "Nothing was changed.");
    message(status, "plain", "Working…");
    try {
      const r = await api(`${base}vlan/${path}/`, { method: "POST", body });
      await vlansPage(main, g, s); // the list as the device has it now
      message(document.getElementById("vlan-status"), "ok", r.result);
    } catch (err) {
      message(status, "error", err.message);
    }
  }

  const rows = Object.values(dev.vlans ?? {}).map((v) => {
    const name = h("input", { type: "text", id: `vlan-name-${v.id}`, value: v.name, maxlength: 32 });
    return h(
      "tr",
      { "data-vlan": v.id },
      h("td", { "data-label": "VLAN" }, String(v.id)),
      h(
        "td",
        { "data-label": "Name" },
        // the API renames only a VLAN the group allows ("Yours to use"); others show the name
        may.rename && v.allowed
          ? h(
              "form",
              {
                onsubmit: (ev) => (
                  ev.preventDefault(),
                  act("edit", { vlan_id: v.id, vlan_name: name.value }, `Rename VLAN ${v.id} to "${name.value}"?`)
                ),
              },
              h("label", { class: "sr-only", for: `vlan-name-${v.id}` }, `Name of VLAN ${v.id}`),
              name,
              h("button", { type: "submit", class: "secondary", "aria-label": `Rename VLAN ${v.id}` }, "Rename"),
            )
          : v.name,
      ),
      h("td", { "data-label": "State" }, v.state),
      h("td", { "data-label": "Status" }, v.status),
      h("td", { "data-label": "Yours to use" }, v.allowed ? "yes" : "no"),
      may.remove
        ? h(
            "td",
            { "data-label": "Delete" },
            h(
              "button",
              {
                type: "button",
                class: "secondary",
                "aria-label": `Delete VLAN ${v.id}`,
                onclick: () => act("delete", { vlan_id: v.id }, `Delete VLAN ${v.id} (${v.name}) from ${sw.name}?`),
              },
              "Delete",
            ),
          )
        : null,
    );
  });
  const newId = h("input", { type: "number", id: "new-vlan-id", min: 1, max: 4094, required: true });
  const newName = h("input", { type: "text", id: "new-vlan-name", maxlength: 32, required: true });
  show(
    main,
    h("p", {}, h("a", { href: "/ui/" }, "Devices"), " › ", h("a", { href: `/ui/switch/${g}/${s}/` }, sw.name)),
    h("h1", {}, `VLANs of ${sw.name}`),
    status,
    may.add
      ? h(
          "form",
          {
            class: "panel toolbar",
            id: "vlan-add",
            onsubmit: (ev) => (
              ev.preventDefault(),
              act(
                "add",
                { vlan_id: Number(newId.value), vlan_name: newName.value },
                `Create VLAN ${newId.value} (${newName.value}) on ${sw.name}?`,
              )
            ),
          },
          h("strong", {}, "New VLAN"),
          h("label", { for: "new-vlan-id" }, "VLAN id"),
          newId,
          h("label", { for: "new-vlan-name" }, "Name"),
          newName,
          h("button", { type: "submit" }, "Create"),
        )
      : null,
    h(
      "table",
      { class: "cards vlans" },
      h("caption", { class: "sr-only" }, `VLANs of ${sw.name}`),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ["VLAN", "Name", "State", "Status", "Yours to use", may.remove ? "Delete" : null]
            .filter(Boolean)
            .map((t) => h("th", { scope: "col" }, t)),
        ),
      ),
      h("tbody", {}, rows),
    ),
  );
}
