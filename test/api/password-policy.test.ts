/**
 * The password policy of local accounts (PASSWORD_MIN_LENGTH, 10 by default): a shorter
 * password is a 400 `invalid_password` that names the rule, on create and on update by
 * POST or PATCH, and nothing is changed; the length counts characters, not bytes.
 * (changepassword, createsuperuser and the first superuser: test/api/cli.test.ts.)
 */
import { startAppWithRoot, type TestApp } from "../support/harness";
import { describeDb } from "../support/db";

const TOO_SHORT = {
  reason: "This password is too short. It must contain at least 10 characters.",
  code: "invalid_password",
};

describeDb("password policy of local accounts", () => {
  let app: TestApp;
  let root: string;
  beforeAll(async () => {
    ({ app, root } = await startAppWithRoot());
  });
  afterAll(async () => app?.close());

  it("refuses a password of 9 characters on create (form and JSON) and creates nothing; 10 are enough", async () => {
    const before = (await app.services.repos.users.list()).length;
    const form = await app.request("POST", "/api/admin/users/", {
      token: root,
      form: { username: "shorty", password: "nine-char" },
    });
    expect(form.status).toBe(400);
    expect(form.body).toEqual(TOO_SHORT);
    const json = await app.request("POST", "/api/admin/users/", {
      token: root,
      json: { username: "shorty", password: "a" },
    });
    expect(json.status).toBe(400);
    expect(json.body).toEqual(TOO_SHORT);
    expect((await app.services.repos.users.list()).length).toBe(before);

    const ok = await app.request("POST", "/api/admin/users/", {
      token: root,
      json: { username: "shorty", password: "ten-chars!" },
    });
    expect(ok.status).toBe(201);
    expect(
      (await app.request("POST", "/api/users/token/", { json: { username: "shorty", password: "ten-chars!" } })).status,
    ).toBe(200);
  });

  it("refuses a short password on update by POST and PATCH; the old password and the other fields stay", async () => {
    const created = await app.request("POST", "/api/admin/users/", {
      token: root,
      json: { username: "keeper", password: "keeper-pass-1" },
    });
    const id = created.body.id;
    for (const method of ["POST", "PATCH"]) {
      const r = await app.request(method, `/api/admin/users/${id}/`, {
        token: root,
        json: { first_name: "Changed", password: "short-1" },
      });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(TOO_SHORT);
    }
    const user = await app.request("GET", `/api/admin/users/${id}/`, { token: root });
    expect(user.body.first_name).toBe("");
    expect(user.body.password).toBe(created.body.password);
    expect(
      (await app.request("POST", "/api/users/token/", { json: { username: "keeper", password: "keeper-pass-1" } }))
        .status,
    ).toBe(200);
  });

  it("counts characters, not bytes or UTF-16 units", async () => {
    // five emoji are ten UTF-16 units and twenty bytes, but five characters
    const emoji = await app.request("POST", "/api/admin/users/", {
      token: root,
      json: { username: "emoji", password: "🔑🔑🔑🔑🔑" },
    });
    expect(emoji.status).toBe(400);
    expect(emoji.body).toEqual(TOO_SHORT);
    const accents = await app.request("POST", "/api/admin/users/", {
      token: root,
      json: { username: "accents", password: "pässwörtçé" },
    });
    expect(accents.status).toBe(201);
  });
});
