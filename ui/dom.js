// Building the page from data with text nodes only (nothing from the API becomes HTML).

/** h("button", {class: "x", onclick: fn, "aria-label": "..."}, "text", child, ...) */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "value") el.value = v;
    else if (k === "checked" || k === "selected" || k === "disabled") el[k] = Boolean(v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** replace what an element shows */
export function show(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** a message in words: ok (green), error (red, alert), or plain */
export function message(el, kind, text) {
  el.className = kind === "error" ? "error" : kind === "ok" ? "ok" : "muted";
  el.textContent = text;
}

/** "Are you sure?" when the profile asks for it */
export function sure(question) {
  return document.body.dataset.areYouSure !== "true" || window.confirm(question);
}

export function when(iso) {
  if (!iso) return "never";
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? String(iso)
    : d
        .toISOString()
        .replace("T", " ")
        .replace(/\.\d+Z$/, " UTC");
}

export function speedText(mbps) {
  if (!mbps) return "";
  return mbps >= 1000 ? `${mbps / 1000} Gbps` : `${mbps} Mbps`;
}
