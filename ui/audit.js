// The audit log (superusers): newest first, a page at a time, filtered by outcome.
import { api } from "./api.js";
import { h, show, when } from "./dom.js";

// "pending": a device write under way (or one whose outcome is not settled yet)
const OUTCOMES = ["success", "failure", "refused", "unknown", "pending"];

export async function auditPage(main) {
  document.title = "Audit log · switchdesk";
  const params = new URLSearchParams(location.search);
  const page = Math.max(1, Number(params.get("page")) || 1);
  const outcome = OUTCOMES.includes(params.get("outcome")) ? params.get("outcome") : "";
  const q = new URLSearchParams({ page: String(page), page_size: "50" });
  if (outcome) q.set("outcome", outcome);
  const log = await api(`/api/admin/log/?${q}`);
  const pages = Math.max(1, Math.ceil(log.count / log.page_size));
  const link = (p) => {
    const l = new URLSearchParams({ page: String(p) });
    if (outcome) l.set("outcome", outcome);
    return `/ui/audit/?${l}`;
  };
  const filter = h(
    "form",
    { class: "toolbar", method: "get", action: "/ui/audit/" },
    h("label", { for: "audit-outcome" }, "Outcome"),
    h(
      "select",
      { id: "audit-outcome", name: "outcome" },
      h("option", { value: "" }, "all"),
      OUTCOMES.map((o) => h("option", { value: o, selected: o === outcome }, o)),
    ),
    h("button", { type: "submit" }, "Show"),
  );
  const cols = ["Time", "User", "From", "Device", "Interface", "Action", "Change", "Outcome", "Message"];
  show(
    main,
    h("h1", {}, "Audit log"),
    filter,
    h("p", { class: "muted" }, `${log.count} entries; page ${page} of ${pages}.`),
    h(
      "table",
      { class: "cards audit" },
      h("caption", { class: "sr-only" }, "Audit log, newest first"),
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          cols.map((c) => h("th", { scope: "col" }, c)),
        ),
      ),
      h(
        "tbody",
        {},
        log.results.map((r) =>
          h(
            "tr",
            {},
            [
              when(r.time),
              r.username,
              r.source_address,
              r.switch_name,
              r.interface,
              r.action,
              [r.old_value, r.new_value].filter(Boolean).join(" → "),
              r.outcome,
              r.message,
            ].map((v, n) =>
              h(
                "td",
                { "data-label": cols[n], class: n === 7 && v !== "success" && v !== "pending" ? "error" : undefined },
                v ?? "",
              ),
            ),
          ),
        ),
      ),
    ),
    h(
      "nav",
      { class: "pager", "aria-label": "Pages" },
      page > 1 ? h("a", { href: link(page - 1) }, "Newer") : null,
      page < pages ? h("a", { href: link(page + 1) }, "Older") : null,
    ),
  );
}
