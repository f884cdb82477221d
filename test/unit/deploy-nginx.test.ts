/**
 * The nginx example (deploy/nginx.conf) keeps its TLS settings modern and sends HSTS:
 * only TLS 1.2 and 1.3, only forward-secret AEAD suites, no session tickets, and a
 * Strict-Transport-Security header on every answer. nginx is not installed on the
 * development machines, so the file's directives are read as text.
 */
import fs from "node:fs";
import path from "node:path";

const conf = fs.readFileSync(path.resolve(__dirname, "../../deploy/nginx.conf"), "utf8");
/** the directives, comments dropped: name -> its values */
const directives = new Map<string, string[]>();
for (const line of conf.split("\n")) {
  const m = /^\s*([a-z_0-9]+)\s+([^#;]*);/.exec(line.replace(/#.*/, ""));
  if (m) directives.set(m[1], [...(directives.get(m[1]) ?? []), m[2].trim()]);
}

describe("the nginx example's TLS", () => {
  it("speaks TLS 1.2 and 1.3 only", () => {
    expect(directives.get("ssl_protocols")).toEqual(["TLSv1.2 TLSv1.3"]);
  });

  it("offers only forward-secret AEAD suites for TLS 1.2", () => {
    const ciphers = (directives.get("ssl_ciphers") ?? [""])[0].split(":");
    expect(ciphers.length).toBeGreaterThan(0);
    for (const c of ciphers)
      expect({ c, modern: /^ECDHE-(ECDSA|RSA)-(AES(128|256)-GCM-SHA(256|384)|CHACHA20-POLY1305)$/.test(c) }).toEqual({
        c,
        modern: true,
      });
  });

  it("turns session tickets off", () => {
    expect(directives.get("ssl_session_tickets")).toEqual(["off"]);
  });

  it("sends HSTS for a year on every answer, errors included", () => {
    const hsts = (directives.get("add_header") ?? []).filter((v) => v.startsWith("Strict-Transport-Security"));
    expect(hsts).toHaveLength(1);
    expect(hsts[0]).toMatch(/^Strict-Transport-Security "max-age=(\d+)[^"]*" always$/);
    expect(Number(/max-age=(\d+)/.exec(hsts[0])![1])).toBeGreaterThanOrEqual(31536000);
  });

  it("plain http only redirects to https", () => {
    expect(conf).toMatch(/listen 80;[\s\S]*?return 301 https:\/\/\$host\$request_uri;/);
  });
});
