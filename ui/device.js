// A device: its summary, the ports table with changes in place (a trunk editor where the
// user may change a port's tagged VLANs), the details view (MACs and LLDP neighbours), the
// Save button on devices that need one, and bulk edit.
import { api, devicePath, interfacePath } from "./api.js";
import { h, show, message, sure, speedText } from "./dom.js";
import { bulkPanel } from "./bulk.js";

const CANNOT_MANAGE = "You can not manage this interface!";
const NO_DESCRIPTION_EDIT = "You are not allowed to change the interface description!";
/** a bounce's or power cycle's wait: the API's default (spec: 0 to 60 s, default 3) */
const CYCLE_WAIT_S = 3;

/**
 * What this user may change on this device and port, from what the API says: the switch's
 * read_only and capability flags, and each interface's own rights (`manageable`,
 * `allow_poe_toggle`, `can_edit_description`, `can_edit_tags`: exactly what its writes
 * would allow, flags of the group, the device and the service included). `why.<change>(i)` is null when allowed, else the
 * reason in the API's own words; `<change>(i)` is true when allowed.
 */
export function rightsOf(user, sw) {
  const writable = !sw.read_only && !user.read_only;
  const cannot = (flag, what) => (flag ? null : `This switch model cannot ${what}`);
  const unmanageable = (i) => i.unmanage_reason || CANNOT_MANAGE;
  // a manageable port with a reason is a member of a link aggregation: its VLANs are the aggregate's
  const vlanLocked = (i) => (i.manageable ? (i.unmanage_reason ?? null) : unmanageable(i));
  // in the order the API checks: what the device can do, the port's rights, the port's PoE
  const why = {
    vlan: (i) => cannot(sw.change_vlan, "change the interface vlan") ?? vlanLocked(i),
    state: (i) =>
      cannot(sw.change_admin_status, "change the interface status") ?? (i.manageable ? null : unmanageable(i)),
    poe: (i) =>
      cannot(sw.change_poe, "change the PoE status") ??
      (!i.allow_poe_toggle ? unmanageable(i) : i.poe ? null : `Interface ${i.name} does not support PoE`),
    description: (i) =>
      cannot(sw.change_description, "change the interface description") ??
      (i.can_edit_description ? null : i.manageable ? NO_DESCRIPTION_EDIT : unmanageable(i)),
    tags: (i) =>
      cannot(sw.change_tags, "change the interface tagged vlans") ??
      (i.can_edit_tags ? null : i.manageable ? CANNOT_MANAGE : unmanageable(i)),
  };
  // a bounce or power cycle (switchdesk's own, docs/api-decisions.md "Helpdesk writes"): the
  // state or PoE write's rights, never on a member of a link aggregation (a manageable port
  // with a reason), and only on an enabled port or enabled PoE
  // (and a power cycle, for everyone but superusers, never on a port the administrator
  // protects, an uplink: its reason is one of OpenL2M's "admin setting" texts)
  const lagMember = (i) => i.manageable && Boolean(i.unmanage_reason);
  const adminProtected = (i) => !i.manageable && / admin (deny )?setting!$/.test(i.unmanage_reason ?? "");
  const cycles = {
    bounce: (i) => why.state(i) === null && !lagMember(i) && i.state === "Enabled",
    poe_cycle: (i) => why.poe(i) === null && !lagMember(i) && !adminProtected(i) && i.poe?.admin_status === "Enabled",
  };
  return {
    writable,
    why,
    vlan: (i) => why.vlan(i) === null,
    state: (i) => why.state(i) === null,
    poe: (i) => why.poe(i) === null,
    description: (i) => why.description(i) === null,
    tags: (i) => why.tags(i) === null,
    ...cycles,
    /** anything at all may be changed on this port */
    any: (i) => Object.values(why).some((reason) => reason(i) === null),
  };
}

export function allowedVlans(dev) {
  return Object.values(dev.vlans ?? {}).filter((v) => v.allowed);
}

/** the VLANs this user may put on or take off a trunk (each VLAN's `allowed_tagged`) */
export function trunkVlans(dev) {
  return Object.values(dev.vlans ?? {}).filter((v) => v.allowed_tagged);
}

/** "20, 30" (the view's tagged_vlans) -> [20, 30] */
const taggedOf = (i) =>
  i.mode === "Tagged" && i.tagged_vlans
    ? i.tagged_vlans
        .split(",")
        .map((x) => Number(x.trim()))
        .filter(Number.isInteger)
    : [];

const vlanLabel = (v) => (v.name ? `${v.id} ${v.name}` : String(v.id));

export async function devicePage(main, g, s, details) {
  const base = devicePath(g, s);
  const viewPath = details ? `${base}details/` : base;
  show(main, h("p", { class: "loading", role: "status" }, "Reading the device…"));
  const [menu, first] = await Promise.all([api("/api/switches/"), api(viewPath)]);
  const user = menu.user;
  let dev = first;
  const sw = dev.switch;
  const can = rightsOf(user, sw);
  const bulk = document.body.dataset.bulkEdit === "true" && can.writable;
  document.title = `${sw.name} · switchdesk`;

  const results = new Map(); // interface id -> its result element (kept across row refreshes)
  const resultOf = (id) => {
    if (!results.has(id)) results.set(id, h("span", { role: "status" }));
    return results.get(id);
  };
  const rows = new Map(); // interface id -> <tr>
  const selected = new Set();
  let bulkEdit = null; // the bulk panel, told when the selection or the ports change

  // --- Save button: on devices that need an explicit save, highlighted after a change ---
  const saveStatus = h("span", { role: "status" });
  const saveButton =
    sw.save_config && can.writable
      ? h(
          "button",
          { type: "button", id: "save-config", class: "secondary", onclick: () => save() },
          "Save configuration",
        )
      : null;
  function markUnsaved() {
    if (!saveButton) return;
    saveButton.classList.add("attention");
    saveButton.textContent = "Save configuration (unsaved changes)";
  }
  async function save() {
    if (!sure(`Save the running configuration of ${sw.name}?`)) return message(saveStatus, "plain", "Not saved.");
    message(saveStatus, "plain", "Saving…");
    saveButton.disabled = true;
    try {
      const r = await api(`${base}save/`, { method: "POST", body: { save: "yes" } });
      message(saveStatus, "ok", r.result);
      saveButton.classList.remove("attention");
      saveButton.textContent = "Save configuration";
    } catch (err) {
      message(saveStatus, "error", err.message);
    } finally {
      saveButton.disabled = false;
    }
  }

  // --- one change through the API, its answer in words next to the port ---
  async function send(iface, kind, body) {
    const r = await api(`${interfacePath(g, s, iface.id)}${kind}/`, { method: "POST", body });
    markUnsaved();
    return r.result;
  }
  /** a port batch (bulk edit): every item's result, in order */
  async function batch(items) {
    const r = await api(`${base}batch/`, { method: "POST", body: { items, on_failure: "continue" } });
    if (r.summary.done) markUnsaved();
    return r;
  }
  async function change(iface, kind, body, question) {
    const out = resultOf(iface.id);
    if (question && !sure(question)) {
      message(out, "plain", "Not changed.");
      rows.get(iface.id)?.replaceWith(row(iface)); // the controls show the port's value again
      return;
    }
    message(out, "plain", "Working…");
    busy(true);
    try {
      message(out, "ok", await send(iface, kind, body));
    } catch (err) {
      message(out, "error", err.message);
    }
    await refresh([iface.id]);
    busy(false);
  }
  /** the table is busy while a change is sent and its rows read again */
  let table = null;
  const busy = (on) => table?.setAttribute("aria-busy", String(on));

  /** read the device again and redraw these rows from what it says now */
  async function refresh(ids) {
    try {
      dev = await api(viewPath);
    } catch (err) {
      for (const id of ids) resultOf(id).textContent += ` (The port could not be read again: ${err.message})`;
      return;
    }
    for (const iface of dev.interfaces) if (ids.includes(iface.id)) rows.get(iface.id)?.replaceWith(row(iface));
    bulkEdit?.selectionChanged();
  }

  // --- the cells of one port ---
  /**
   * The trunk editor, only where the API would take the change (`can_edit_tags` and the
   * switch's `change_tags`): the native VLAN and a box for each VLAN the user may tag.
   * Tagged VLANs on the port that are not the user's are named; the API keeps them.
   */
  function trunkEditor(i) {
    if (!can.tags(i)) return null;
    const mine = trunkVlans(dev);
    const tagged = taggedOf(i);
    const foreign = tagged.filter((id) => !mine.some((v) => v.id === id));
    const native = h(
      "select",
      { id: `native-${i.id}` },
      mine.some((v) => v.id === i.vlan)
        ? null
        : h(
            "option",
            { value: "", selected: true, disabled: true },
            i.vlan === undefined ? "none" : `${i.vlan} (not yours)`,
          ),
      mine.map((v) => h("option", { value: v.id, selected: v.id === i.vlan }, vlanLabel(v))),
    );
    const boxes = mine.map((v) =>
      h(
        "label",
        {},
        h("input", { type: "checkbox", name: "tagged", value: v.id, checked: tagged.includes(v.id) }),
        ` ${vlanLabel(v)}`,
      ),
    );
    // every VLAN of the device only when every one is the user's (the API's rule for allow_all)
    const everyVlan = Object.values(dev.vlans ?? {}).every((v) => v.allowed_tagged)
      ? h("input", { type: "checkbox", name: "allow_all", id: `allow-all-${i.id}` })
      : null;
    const submit = (ev) => {
      ev.preventDefault();
      const ids = boxes
        .map((l) => l.querySelector("input"))
        .filter((b) => b.checked)
        .map((b) => Number(b.value));
      const untagged = Number(native.value);
      const all = everyVlan?.checked ?? false;
      const list = all ? "every VLAN" : ids.length ? ids.join(", ") : "none (an access port)";
      change(
        i,
        "tags",
        { untagged_vlan: untagged, tagged_vlans: ids, allow_all: all },
        `Set the VLANs of ${i.name}: native ${untagged}, tagged ${list}?`,
      );
    };
    return h(
      "details",
      { class: "trunk" },
      h("summary", {}, "Tagged VLANs…"),
      h(
        "form",
        { onsubmit: submit, "aria-label": `Tagged VLANs of ${i.name}` },
        h("label", { for: `native-${i.id}` }, "Native VLAN "),
        native,
        h("fieldset", {}, h("legend", {}, `Tagged VLANs of ${i.name}`), boxes),
        everyVlan ? h("label", { for: `allow-all-${i.id}` }, everyVlan, " every VLAN of the device") : null,
        foreign.length
          ? h("p", { class: "muted" }, `Also tagged, not yours (stays on the port): ${foreign.join(", ")}`)
          : null,
        h("button", { type: "submit", class: "secondary", "aria-label": `Set the VLANs of ${i.name}` }, "Set VLANs"),
      ),
    );
  }
  function vlanCell(i) {
    const shown = [
      i.vlan !== undefined ? `${i.vlan}` : "",
      i.mode === "Tagged" && i.tagged_vlans ? `tagged ${i.tagged_vlans}` : "",
    ]
      .filter(Boolean)
      .join(", ");
    if (!can.vlan(i)) return [shown || "none", trunkEditor(i)];
    const vlans = allowedVlans(dev);
    const sel = h(
      "select",
      {
        id: `vlan-${i.id}`,
        onchange: () =>
          change(
            i,
            "vlan",
            { vlan: Number(sel.value) },
            `Change the VLAN of ${i.name} from ${i.vlan ?? "none"} to ${sel.value}?`,
          ),
      },
      vlans.some((v) => v.id === i.vlan)
        ? null
        : h(
            "option",
            { value: "", selected: true, disabled: true },
            i.vlan === undefined ? "none" : `${i.vlan} (not yours)`,
          ),
      vlans.map((v) => h("option", { value: v.id, selected: v.id === i.vlan }, vlanLabel(v))),
    );
    return [
      h("label", { class: "sr-only", for: `vlan-${i.id}` }, `VLAN of ${i.name}`),
      sel,
      i.mode === "Tagged" && i.tagged_vlans ? h("div", { class: "muted" }, `tagged ${i.tagged_vlans}`) : null,
      trunkEditor(i),
    ];
  }
  function stateCell(i) {
    const on = i.state === "Enabled";
    if (!can.state(i)) return i.state;
    return [
      h("span", {}, i.state, " "),
      h(
        "button",
        {
          type: "button",
          class: "secondary",
          "aria-label": `${on ? "Disable" : "Enable"} ${i.name}`,
          onclick: () => change(i, "state", { state: on ? "off" : "on" }, `${on ? "Disable" : "Enable"} ${i.name}?`),
        },
        on ? "Disable" : "Enable",
      ),
      can.bounce(i)
        ? h(
            "button",
            {
              type: "button",
              class: "secondary bounce",
              "aria-label": `Bounce ${i.name}`,
              onclick: () =>
                change(i, "bounce", {}, `Bounce ${i.name}? It goes down for ${CYCLE_WAIT_S} seconds, then up again.`),
            },
            "Bounce",
          )
        : null,
    ];
  }
  function poeCell(i) {
    if (!i.poe) return "";
    const on = i.poe.admin_status === "Enabled";
    const text = [i.poe.admin_status, i.poe.detect_status, i.poe.power_consumed ? `${i.poe.power_consumed} mW` : ""]
      .filter(Boolean)
      .join(", ");
    if (!can.poe(i)) return text;
    return [
      h("span", {}, text, " "),
      h(
        "button",
        {
          type: "button",
          class: "secondary",
          "aria-label": `Turn PoE ${on ? "off" : "on"} on ${i.name}`,
          onclick: () =>
            change(i, "poe_state", { poe_state: on ? "off" : "on" }, `Turn PoE ${on ? "off" : "on"} on ${i.name}?`),
        },
        on ? "PoE off" : "PoE on",
      ),
      can.poe_cycle(i)
        ? h(
            "button",
            {
              type: "button",
              class: "secondary poe-cycle",
              "aria-label": `Power cycle ${i.name}`,
              onclick: () =>
                change(
                  i,
                  "poe_cycle",
                  {},
                  `Power cycle ${i.name}? PoE goes off for ${CYCLE_WAIT_S} seconds, then on again.`,
                ),
            },
            "Power cycle",
          )
        : null,
    ];
  }
  function descriptionCell(i) {
    if (!can.description(i)) return i.description;
    const input = h("input", { type: "text", id: `descr-${i.id}`, value: i.description ?? "", maxlength: 64 });
    return h(
      "form",
      {
        onsubmit: (ev) => (
          ev.preventDefault(),
          change(
            i,
            "description",
            { description: input.value },
            `Set the description of ${i.name} to "${input.value}"?`,
          )
        ),
      },
      h("label", { class: "sr-only", for: `descr-${i.id}` }, `Description of ${i.name}`),
      input,
      h("button", { type: "submit", class: "secondary", "aria-label": `Set the description of ${i.name}` }, "Set"),
    );
  }
  function macCell(i) {
    const macs = i.ethernet_addresses ?? [];
    return macs.length
      ? h(
          "ul",
          { class: "plain" },
          macs.map((m) =>
            h(
              "li",
              {},
              m.address,
              m.vlan ? ` vlan ${m.vlan}` : "",
              m.vendor ? ` · ${m.vendor}` : "",
              m.ipv4?.length ? ` · ${m.ipv4.join(", ")}` : "",
            ),
          ),
        )
      : "";
  }
  function neighbourCell(i) {
    const ns = i.neighbors ?? [];
    return ns.length
      ? h(
          "ul",
          { class: "plain" },
          ns.map((n) =>
            h(
              "li",
              {},
              n.system_name || n.chassis_id,
              n.port_name ? ` port ${n.port_name}` : "",
              n.management_address_v4 ? ` · ${n.management_address_v4}` : "",
            ),
          ),
        )
      : "";
  }

  function pickCell(i) {
    if (!can.any(i)) return "";
    const pick = (ev) => {
      if (ev.target.checked) selected.add(i.id);
      else selected.delete(i.id);
      bulkEdit.selectionChanged();
    };
    return h("input", {
      type: "checkbox",
      class: "pick",
      "aria-label": `Select ${i.name}`,
      checked: selected.has(i.id),
      onchange: pick,
    });
  }

  const columns = [
    ...(bulk ? [["Select", pickCell]] : []),
    [
      "Port",
      (i) => [
        h("strong", {}, i.name),
        i.manageable && !i.unmanage_reason ? null : h("div", { class: "muted" }, i.unmanage_reason ?? "not manageable"),
      ],
    ],
    ["Description", descriptionCell],
    ["Admin state", stateCell],
    ["Link", (i) => (i.online ? "Up" : "Down")],
    ["Speed", (i) => speedText(i.speed)],
    ["VLAN", vlanCell],
    ["PoE", poeCell],
    ...(details
      ? [
          ["MAC addresses", macCell],
          ["LLDP neighbours", neighbourCell],
        ]
      : []),
    ["Result", (i) => resultOf(i.id)],
  ];
  function row(i) {
    const tr = h(
      "tr",
      { "data-interface": i.id },
      columns.map(([label, cell]) =>
        h("td", { "data-label": label, class: label === "Result" ? "result" : undefined }, cell(i)),
      ),
    );
    rows.set(i.id, tr);
    return tr;
  }

  const info = sw.driver_info ?? {};
  const summary = h(
    "div",
    { class: "summary panel" },
    [
      ["Hostname", sw.hostname],
      ["Address", sw.primary_ipv4],
      ["Vendor", sw.vendor],
      ["Model", info.model],
      ["Software", info.software_version],
      ["Group", sw.group],
      ["Access", sw.read_only ? "read-only" : "read and write"],
    ]
      .filter(([, v]) => v)
      .map(([k, v]) => h("div", {}, h("span", {}, `${k}: `), String(v))),
  );
  const views = h(
    "nav",
    { class: "toolbar", "aria-label": "Views of this device" },
    details
      ? h("a", { href: `/ui/switch/${g}/${s}/` }, "Basic view")
      : h("a", { href: `/ui/switch/${g}/${s}/details/` }, "Details (MAC addresses and neighbours)"),
    h("a", { href: `/ui/switch/${g}/${s}/vlans/` }, "VLANs"),
    h("a", { href: `/api/switches/${g}/${s}/${details ? "details/" : ""}` }, "As JSON in the API"),
    saveButton,
    saveStatus,
  );
  const tbody = h("tbody", {}, dev.interfaces.map(row));
  if (bulk) {
    bulkEdit = bulkPanel({
      interfaces: () => dev.interfaces,
      selected,
      vlans: () => allowedVlans(dev),
      rights: can,
      send,
      batch,
      resultOf,
      refresh,
      busy,
      select: (ids) => {
        selected.clear();
        for (const id of ids) selected.add(id);
        for (const i of dev.interfaces) rows.get(i.id)?.replaceWith(row(i));
      },
    });
  }
  table = h(
    "table",
    { class: "cards ports", "aria-busy": "false" },
    h("caption", { class: "sr-only" }, `Ports of ${sw.name}`),
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        columns.map(([label]) => h("th", { scope: "col" }, label)),
      ),
    ),
    tbody,
  );
  show(
    main,
    h("p", {}, h("a", { href: "/ui/" }, "Devices"), ` › ${sw.group}`),
    h("h1", {}, sw.name, details ? " (details)" : ""),
    summary,
    views,
    bulkEdit?.element,
    h("h2", {}, `Ports (${dev.interfaces.length})`),
    table,
  );
}
