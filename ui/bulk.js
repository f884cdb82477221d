// Bulk edit (profile bulk_edit): many ports, one VLAN / state / PoE / description for all,
// sent one port after another through the API; a result per port, failures shown, never hidden.
import { h, message, sure } from "./dom.js";

export function bulkPanel(ctx) {
  const vlan = h("select", { id: "bulk-vlan" }, h("option", { value: "" }, "(unchanged)"), ctx.vlans().map((v) => h("option", { value: v.id }, v.name ? `${v.id} ${v.name}` : String(v.id))));
  const state = h("select", { id: "bulk-state" }, h("option", { value: "" }, "(unchanged)"), h("option", { value: "on" }, "Enabled"), h("option", { value: "off" }, "Disabled"));
  const poe = h("select", { id: "bulk-poe" }, h("option", { value: "" }, "(unchanged)"), h("option", { value: "on" }, "PoE on"), h("option", { value: "off" }, "PoE off"));
  const setDescr = h("input", { type: "checkbox", id: "bulk-set-description" });
  const descr = h("input", { type: "text", id: "bulk-description", maxlength: 64 });
  const progress = h("progress", { id: "bulk-progress", max: 1, value: 0, hidden: true, "aria-label": "Bulk edit progress" });
  const status = h("p", { role: "status", id: "bulk-status" });
  const list = h("ol", { class: "bulk-results", id: "bulk-results" });
  const apply = h("button", { type: "submit" }, "Apply to selected ports");

  const changes = () => {
    const out = [];
    if (vlan.value) out.push({ kind: "vlan", body: { vlan: Number(vlan.value) }, what: `VLAN ${vlan.value}`, may: ctx.rights.vlan });
    if (state.value) out.push({ kind: "state", body: { state: state.value }, what: state.value === "on" ? "enabled" : "disabled", may: ctx.rights.state });
    if (poe.value) out.push({ kind: "poe_state", body: { poe_state: poe.value }, what: `PoE ${poe.value}`, may: ctx.rights.poe });
    if (setDescr.checked) out.push({ kind: "description", body: { description: descr.value }, what: `description "${descr.value}"`, may: ctx.rights.description });
    return out;
  };

  async function run(ev) {
    ev.preventDefault();
    const ports = ctx.interfaces().filter((i) => ctx.selected.has(i.id));
    const todo = changes();
    if (!ports.length) return message(status, "error", "Select at least one port in the table first.");
    if (!todo.length) return message(status, "error", "Choose at least one thing to change.");
    if (!sure(`Set ${todo.map((t) => t.what).join(", ")} on ${ports.length} ports?`)) return message(status, "plain", "Nothing was changed.");
    apply.disabled = true;
    ctx.busy(true);
    list.replaceChildren();
    progress.hidden = false;
    progress.max = ports.length;
    progress.value = 0;
    let failed = 0;
    for (const [n, port] of ports.entries()) {
      message(status, "plain", `Working on ${port.name} (${n + 1} of ${ports.length})…`);
      const parts = [];
      let bad = false;
      for (const t of todo) {
        if (!t.may(port)) {
          parts.push(`failed: ${t.what}: you may not change this on this port`);
          bad = true;
          continue;
        }
        try {
          parts.push(await ctx.send(port, t.kind, t.body));
        } catch (err) {
          parts.push(`failed: ${err.message}`);
          bad = true;
        }
      }
      if (bad) failed++;
      const text = parts.join("; ");
      list.append(h("li", { class: bad ? "failed" : "done" }, h("strong", {}, `${port.name}: `), text));
      message(ctx.resultOf(port.id), bad ? "error" : "ok", text);
      progress.value = n + 1;
    }
    message(status, failed ? "error" : "ok", `Done: ${ports.length - failed} of ${ports.length} ports changed${failed ? `, ${failed} with errors (listed below)` : ""}.`);
    await ctx.refresh(ports.map((p) => p.id));
    apply.disabled = false;
    ctx.busy(false);
  }

  const changeable = (i) => ctx.rights.vlan(i) || ctx.rights.state(i) || ctx.rights.poe(i) || ctx.rights.description(i);
  return h(
    "details",
    { class: "panel", id: "bulk" },
    h("summary", {}, "Bulk edit: change many ports at once"),
    h("p", { class: "muted" }, "Tick ports in the Select column, choose what to set, and apply: each port is changed in turn and its result listed."),
    h(
      "div",
      { class: "toolbar" },
      h("button", { type: "button", class: "secondary", onclick: () => ctx.select(ctx.interfaces().filter(changeable).map((i) => i.id)) }, "Select all ports I may change"),
      h("button", { type: "button", class: "secondary", onclick: () => ctx.select([]) }, "Clear selection"),
    ),
    h(
      "form",
      { onsubmit: run },
      h(
        "fieldset",
        {},
        h("legend", {}, "Set on every selected port"),
        h("label", { for: "bulk-vlan" }, "VLAN"), vlan,
        h("label", { for: "bulk-state" }, "Admin state"), state,
        h("label", { for: "bulk-poe" }, "PoE"), poe,
        h("label", { for: "bulk-set-description" }, setDescr, "Set description"),
        h("label", { class: "sr-only", for: "bulk-description" }, "New description"), descr,
        apply,
      ),
    ),
    progress,
    status,
    list,
  );
}
