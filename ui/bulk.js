// Bulk edit (profile bulk_edit): many ports, one VLAN / state / PoE / description for all,
// sent as one port batch (POST .../batch/, one write turn on the device); a result per
// port, failures shown, never hidden.
// Only the changes that at least one selected port allows are offered; a selected port
// that does not allow one is listed with the reason, not skipped in silence.
import { h, message, sure } from "./dom.js";

export function bulkPanel(ctx) {
  const vlan = h(
    "select",
    { id: "bulk-vlan" },
    h("option", { value: "" }, "(unchanged)"),
    ctx.vlans().map((v) => h("option", { value: v.id }, v.name ? `${v.id} ${v.name}` : String(v.id))),
  );
  const state = h(
    "select",
    { id: "bulk-state" },
    h("option", { value: "" }, "(unchanged)"),
    h("option", { value: "on" }, "Enabled"),
    h("option", { value: "off" }, "Disabled"),
  );
  const poe = h(
    "select",
    { id: "bulk-poe" },
    h("option", { value: "" }, "(unchanged)"),
    h("option", { value: "on" }, "PoE on"),
    h("option", { value: "off" }, "PoE off"),
  );
  const setDescr = h("input", { type: "checkbox", id: "bulk-set-description" });
  const descr = h("input", { type: "text", id: "bulk-description", maxlength: 64 });
  const progress = h("progress", {
    id: "bulk-progress",
    max: 1,
    value: 0,
    hidden: true,
    "aria-label": "Bulk edit progress",
  });
  const status = h("p", { role: "status", id: "bulk-status" });
  const list = h("ol", { class: "bulk-results", id: "bulk-results" });
  const apply = h("button", { type: "submit" }, "Apply to selected ports");
  const nothingOffered = h("p", { class: "muted", id: "bulk-none" });

  // each change: its controls (shown only when a selected port allows it), and what it asks
  const actions = [
    {
      kind: "vlan",
      controls: h(
        "span",
        { class: "bulk-action", "data-action": "vlan" },
        h("label", { for: "bulk-vlan" }, "VLAN"),
        vlan,
      ),
      wanted: () => vlan.value !== "",
      reset: () => (vlan.value = ""),
      body: () => ({ vlan: Number(vlan.value) }),
      what: () => `VLAN ${vlan.value}`,
    },
    {
      kind: "state",
      controls: h(
        "span",
        { class: "bulk-action", "data-action": "state" },
        h("label", { for: "bulk-state" }, "Admin state"),
        state,
      ),
      wanted: () => state.value !== "",
      reset: () => (state.value = ""),
      body: () => ({ state: state.value }),
      what: () => (state.value === "on" ? "enabled" : "disabled"),
    },
    {
      kind: "poe_state",
      right: "poe",
      controls: h("span", { class: "bulk-action", "data-action": "poe" }, h("label", { for: "bulk-poe" }, "PoE"), poe),
      wanted: () => poe.value !== "",
      reset: () => (poe.value = ""),
      body: () => ({ poe_state: poe.value }),
      what: () => `PoE ${poe.value}`,
    },
    {
      kind: "description",
      controls: h(
        "span",
        { class: "bulk-action", "data-action": "description" },
        h("label", { for: "bulk-set-description" }, setDescr, "Set description"),
        h("label", { class: "sr-only", for: "bulk-description" }, "New description"),
        descr,
      ),
      wanted: () => setDescr.checked,
      reset: () => ((setDescr.checked = false), (descr.value = "")),
      body: () => ({ description: descr.value }),
      what: () => `description "${descr.value}"`,
    },
  ];
  const why = (action, port) => ctx.rights.why[action.right ?? action.kind](port);
  const picked = () => ctx.interfaces().filter((i) => ctx.selected.has(i.id));

  /** show the changes some selected port allows; a change no longer offered is cleared */
  function selectionChanged() {
    const ports = picked();
    let offered = 0;
    for (const a of actions) {
      const some = ports.some((p) => why(a, p) === null);
      a.controls.hidden = !some;
      if (!some) a.reset();
      offered += Number(some);
    }
    nothingOffered.textContent = !ports.length
      ? "Select ports in the table: the changes they allow are offered here."
      : offered
        ? ""
        : "None of the selected ports allows any change.";
    nothingOffered.hidden = nothingOffered.textContent === "";
  }

  async function run(ev) {
    ev.preventDefault();
    const ports = picked();
    const todo = actions.filter((a) => !a.controls.hidden && a.wanted());
    if (!ports.length) return message(status, "error", "Select at least one port in the table first.");
    if (!todo.length) return message(status, "error", "Choose at least one thing to change.");
    if (!sure(`Set ${todo.map((a) => a.what()).join(", ")} on ${ports.length} ports?`))
      return message(status, "plain", "Nothing was changed.");
    apply.disabled = true;
    ctx.busy(true);
    list.replaceChildren();
    progress.hidden = false;
    progress.max = ports.length;
    progress.value = 0;
    // every change the ports allow goes to the device in one batch call (POST .../batch/,
    // on_failure continue: a port the device refuses does not stop the others); a change a
    // port does not allow is listed with the reason the API would give and not sent
    const plan = ports.map((port) =>
      todo.map((a) => {
        const reason = why(a, port);
        return reason === null
          ? { send: { interface: port.id, ...a.body() } }
          : { text: `failed: ${a.what()}: ${reason}`, bad: true };
      }),
    );
    const items = plan.flat().filter((p) => p.send);
    message(status, "plain", `Sending ${items.length} changes for ${ports.length} ports in one call…`);
    let answers = [];
    let whole = null;
    if (items.length) {
      try {
        answers = (await ctx.batch(items.map((p) => p.send))).items;
      } catch (err) {
        whole = err.message;
      }
    }
    let n = 0;
    let failed = 0;
    for (const [k, port] of ports.entries()) {
      const parts = plan[k].map((p) => {
        if (!p.send) return p;
        const a = answers[n++];
        if (whole !== null || !a) return { text: `failed: ${whole ?? "no answer"}`, bad: true };
        return a.result === "done" ? { text: a.message, bad: false } : { text: `failed: ${a.reason}`, bad: true };
      });
      const bad = parts.some((p) => p.bad);
      if (bad) failed++;
      const text = parts.map((p) => p.text).join("; ");
      list.append(h("li", { class: bad ? "failed" : "done" }, h("strong", {}, `${port.name}: `), text));
      message(ctx.resultOf(port.id), bad ? "error" : "ok", text);
      progress.value = k + 1;
    }
    message(
      status,
      failed ? "error" : "ok",
      `Done: ${ports.length - failed} of ${ports.length} ports changed${failed ? `, ${failed} with errors (listed below)` : ""}.`,
    );
    await ctx.refresh(ports.map((p) => p.id));
    apply.disabled = false;
    ctx.busy(false);
  }

  const select = (ports) => {
    ctx.select(ports.map((i) => i.id));
    selectionChanged();
  };
  const element = h(
    "details",
    { class: "panel", id: "bulk" },
    h("summary", {}, "Bulk edit: change many ports at once"),
    h(
      "p",
      { class: "muted" },
      "Tick ports in the Select column, choose what to set, and apply: the changes go to the device in one call and each port's result is listed.",
    ),
    h(
      "div",
      { class: "toolbar" },
      h(
        "button",
        { type: "button", class: "secondary", onclick: () => select(ctx.interfaces().filter(ctx.rights.any)) },
        "Select all ports I may change",
      ),
      h("button", { type: "button", class: "secondary", onclick: () => select([]) }, "Clear selection"),
    ),
    h(
      "form",
      { onsubmit: run },
      h(
        "fieldset",
        {},
        h("legend", {}, "Set on every selected port"),
        actions.map((a) => a.controls),
        nothingOffered,
        apply,
      ),
    ),
    progress,
    status,
    list,
  );
  selectionChanged();
  return { element, selectionChanged };
}
