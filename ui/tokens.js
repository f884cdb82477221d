// The user's own API tokens: list, create (the key shown once), revoke.
import { api } from "./api.js";
import { h, show, message, sure, when } from "./dom.js";

export async function tokensPage(main, note) {
  document.title = "My tokens · switchdesk";
  const tokens = await api("/api/users/tokens/");
  const status = h("p", { role: "status", id: "token-status" });
  const password = h("input", {
    type: "password",
    id: "token-password",
    autocomplete: "current-password",
    required: true,
  });

  async function create(ev) {
    ev.preventDefault();
    message(status, "plain", "Creating…");
    try {
      // the same call a script makes: the user's name and password for a new token
      const made = await api("/api/users/token/", {
        method: "POST",
        body: { username: document.body.dataset.user, password: password.value },
      });
      await tokensPage(main, made.token);
    } catch (err) {
      message(status, "error", err.message);
    }
  }
  async function revoke(t) {
    if (!sure(`Revoke token ${t.id}? Scripts using it stop working.`))
      return message(status, "plain", "Nothing was revoked.");
    try {
      await api(`/api/users/tokens/${t.id}/`, { method: "DELETE" });
      await tokensPage(main);
      message(document.getElementById("token-status"), "ok", `Token ${t.id} was revoked.`);
    } catch (err) {
      message(status, "error", err.message);
    }
  }

  const cols = ["Id", "Created", "Expires", "Last used", "May write", "Description", "Revoke"];
  show(
    main,
    h("h1", {}, "My API tokens"),
    note
      ? h(
          "div",
          { class: "panel", id: "new-token" },
          h("p", {}, "Your new token (copy it now: it is not shown again):"),
          h("code", { class: "key" }, note),
        )
      : null,
    status,
    h(
      "form",
      { class: "panel toolbar", id: "token-create", onsubmit: create },
      h("strong", {}, "New token"),
      h("label", { for: "token-password" }, "Your password"),
      password,
      h("button", { type: "submit" }, "Create token"),
    ),
    tokens.length
      ? h(
          "table",
          { class: "cards tokens" },
          h("caption", { class: "sr-only" }, "Your API tokens"),
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
            tokens.map((t) =>
              h(
                "tr",
                { "data-token": t.id },
                [
                  String(t.id),
                  when(t.created),
                  t.expires ? when(t.expires) : "never",
                  when(t.last_used),
                  t.write_enabled ? "yes" : "no",
                  t.description,
                ].map((v, n) => h("td", { "data-label": cols[n] }, v)),
                h(
                  "td",
                  { "data-label": "Revoke" },
                  h(
                    "button",
                    {
                      type: "button",
                      class: "secondary",
                      "aria-label": `Revoke token ${t.id}`,
                      onclick: () => revoke(t),
                    },
                    "Revoke",
                  ),
                ),
              ),
            ),
          ),
        )
      : h("p", {}, "You have no API tokens."),
  );
}
