/**
 * A real OpenLDAP server for the directory login tests: Debian's slapd on 127.0.0.1, on
 * free ports (plain LDAP with StartTLS, and LDAPS), with a slapd.conf, a data folder, a
 * test CA and server certificate (made per run with openssl) and a small directory, all
 * in one temporary folder that stop() removes. Passwords are random per run, so a test can
 * look for them in captured logs. Nothing here listens anywhere but 127.0.0.1, and every
 * wait has a limit.
 *
 * Needs /usr/sbin/slapd (package slapd), ldapmodify (ldap-utils), openssl and the schema
 * files that come with slapd. CI installs them; elsewhere the suites are skipped with the
 * reason printed.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import net from "node:net";
import crypto from "node:crypto";
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { describeDb } from "./db";

const SLAPD = ["/usr/sbin/slapd", "/usr/local/sbin/slapd"].find((p) => fs.existsSync(p)) ?? "/usr/sbin/slapd";
const SCHEMA_DIR =
  ["/etc/ldap/schema", "/etc/openldap/schema"].find((p) => fs.existsSync(path.join(p, "core.schema"))) ??
  "/etc/ldap/schema";
const MODULE_DIR =
  ["/usr/lib/ldap", "/usr/lib64/openldap", "/usr/lib/openldap"].find((p) => fs.existsSync(p)) ?? "/usr/lib/ldap";

export const SUFFIX = "dc=example,dc=org";
export const PEOPLE = `ou=people,${SUFFIX}`;
export const GROUPS = `ou=groups,${SUFFIX}`;
export const SERVICE_DN = `cn=switchdesk,ou=services,${SUFFIX}`;
const ROOT_DN = `cn=admin,${SUFFIX}`;

export const userDn = (uid: string) => `uid=${uid.replace(/([,+"\\<>;=])/g, "\\$1")},${PEOPLE}`;
export const groupDn = (cn: string) => `cn=${cn},${GROUPS}`;

function onPath(cmd: string): boolean {
  return (process.env.PATH ?? "").split(path.delimiter).some((d) => d && fs.existsSync(path.join(d, cmd)));
}

/** Why the directory tests cannot run here, or null when they can. */
export function slapdMissing(): string | null {
  const missing: string[] = [];
  if (!fs.existsSync(SLAPD)) missing.push("slapd (apt-get install slapd)");
  if (!fs.existsSync(path.join(SCHEMA_DIR, "inetorgperson.schema")))
    missing.push("the OpenLDAP schema files (package slapd)");
  if (!onPath("ldapmodify")) missing.push("ldapmodify (apt-get install ldap-utils)");
  if (!onPath("openssl")) missing.push("openssl");
  return missing.length ? `needs ${missing.join(", ")}` : null;
}

/**
 * describe() for suites that need slapd and a database. Without slapd: skipped with the
 * reason printed (never counted as passed); under CI that is a failing test instead.
 */
export function describeDirectory(name: string, fn: () => void): void {
  const missing = slapdMissing();
  if (!missing) return describeDb(name, fn);
  if (process.env.CI) {
    describe(name, () => {
      it("needs an OpenLDAP server", () => {
        throw new Error(`directory tests ${missing}; .ci/run must install slapd and ldap-utils`);
      });
    });
    return;
  }
  console.warn(`skipping "${name}": the directory tests ${missing}`);
  describe.skip(`${name} (slapd not installed)`, fn);
}

function run(cmd: string, args: string[], opts: { input?: string; timeoutMs?: number } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      cmd,
      args,
      { timeout: opts.timeoutMs ?? 15000, maxBuffer: 4 << 20 },
      (err, stdout, stderr) => {
        if (err)
          reject(
            new Error(
              `${path.basename(cmd)} failed: ${String(stderr || err.message)
                .trim()
                .slice(0, 2000)}`,
            ),
          );
        else resolve(stdout);
      },
    );
    if (opts.input !== undefined) child.stdin!.end(opts.input);
  });
}

/** A port nothing listens on at the moment of asking (the OS picks it). */
export async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", () => r()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

async function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ port, host: "127.0.0.1" });
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(500, () => done(false));
    s.once("connect", () => done(true));
    s.once("error", () => done(false));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function makeCertificates(dir: string): Promise<void> {
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"];
  const f = (n: string) => path.join(dir, n);
  await run("openssl", [
    "req",
    "-x509",
    ...ec,
    "-keyout",
    f("ca.key"),
    "-out",
    f("ca.pem"),
    "-days",
    "2",
    "-subj",
    "/CN=switchdesk test CA",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  ]);
  await run("openssl", ["req", ...ec, "-keyout", f("server.key"), "-out", f("server.csr"), "-subj", "/CN=localhost"]);
  fs.writeFileSync(
    f("server.ext"),
    "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n",
  );
  await run("openssl", [
    "x509",
    "-req",
    "-in",
    f("server.csr"),
    "-CA",
    f("ca.pem"),
    "-CAkey",
    f("ca.key"),
    "-CAcreateserial",
    "-out",
    f("server.pem"),
    "-days",
    "2",
    "-extfile",
    f("server.ext"),
  ]);
  // a second CA that signed nothing here: a client trusting only it must refuse the server
  await run("openssl", [
    "req",
    "-x509",
    ...ec,
    "-keyout",
    f("other-ca.key"),
    "-out",
    f("other-ca.pem"),
    "-days",
    "2",
    "-subj",
    "/CN=some other CA",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  ]);
  // slapd (GnuTLS) reads its key as another user on some systems
  fs.chmodSync(f("server.key"), 0o644);
}

function slapdConf(dir: string, memberOf: boolean): string {
  const f = (n: string) => path.join(dir, n);
  return [
    ...["core", "cosine", "inetorgperson", "nis"].map((s) => `include ${path.join(SCHEMA_DIR, `${s}.schema`)}`),
    `pidfile ${f("slapd.pid")}`,
    `argsfile ${f("slapd.args")}`,
    `modulepath ${MODULE_DIR}`,
    "moduleload back_mdb",
    ...(memberOf ? ["moduleload memberof"] : []),
    `TLSCACertificateFile ${f("ca.pem")}`,
    `TLSCertificateFile ${f("server.pem")}`,
    `TLSCertificateKeyFile ${f("server.key")}`,
    "database mdb",
    `suffix "${SUFFIX}"`,
    `rootdn "${ROOT_DN}"`,
    `rootpw "${fs.readFileSync(f("root.pw"), "utf8")}"`,
    `directory ${f("data")}`,
    "maxsize 16777216",
    ...(memberOf ? ["overlay memberof"] : []),
    // passwords: only for binding (and changing one's own); the rest: readable by any bound user
    "access to attrs=userPassword by self =xw by anonymous auth by * none",
    "access to * by users read by * none",
    "",
  ].join("\n");
}

export interface DirectoryUser {
  uid: string;
  dn: string;
  password: string;
  givenName: string;
  sn: string;
  mail: string;
}

export interface TestDirectory {
  /** ldap://127.0.0.1:port (StartTLS available) */
  ldapUrl: string;
  /** ldaps://127.0.0.1:port */
  ldapsUrl: string;
  /** the CA that signed the server's certificate, and one that did not */
  caFile: string;
  otherCaFile: string;
  serviceDn: string;
  servicePassword: string;
  users: Record<string, DirectoryUser>;
  /** every password of this directory (users, service account, root) */
  passwords(): string[];
  /** applies an LDIF change with ldapmodify as the directory's administrator */
  modify(ldif: string): Promise<void>;
  /** adds a user entry (inetOrgPerson) with a random password */
  addUser(uid: string, extra?: Partial<Pick<DirectoryUser, "givenName" | "sn" | "mail">>): Promise<DirectoryUser>;
  /** slapd's own log so far (stats level: connections, binds, searches; never passwords) */
  log(): string;
  stop(): Promise<void>;
}

const live = new Set<ChildProcess>();
process.once("exit", () => {
  for (const c of live) c.kill("SIGKILL");
});

const pw = (who: string) => `${who}-${crypto.randomBytes(12).toString("base64url")}`;

/** The groups of the test directory and their members (uids). */
export const TEST_GROUPS = {
  // groupOfNames
  "sd-admins": { kind: "groupOfNames", members: ["alice"] },
  "sd-vlan": { kind: "groupOfNames", members: ["bob"] },
  netops: { kind: "groupOfNames", members: ["alice", "bob"] },
  // groupOfUniqueNames
  "sd-staff": { kind: "groupOfUniqueNames", members: ["alice"] },
  helpdesk: { kind: "groupOfUniqueNames", members: ["bob"] },
  // posixGroup (members by uid)
  "sd-readonly": { kind: "posixGroup", members: ["bob"] },
} as const;

function groupLdif(cn: string, kind: string, members: readonly string[], gid: number): string {
  const lines = [`dn: ${groupDn(cn)}`, `objectClass: ${kind}`, `cn: ${cn}`];
  if (kind === "posixGroup") {
    lines.push(`gidNumber: ${gid}`, ...members.map((m) => `memberUid: ${m}`));
  } else {
    const attr = kind === "groupOfNames" ? "member" : "uniqueMember";
    // both classes need at least one member: the service account stands in
    lines.push(
      ...(members.length ? members : ["__service"]).map(
        (m) => `${attr}: ${m === "__service" ? SERVICE_DN : userDn(m)}`,
      ),
    );
  }
  return lines.join("\n");
}

function userLdif(u: DirectoryUser): string {
  return [
    `dn: ${u.dn}`,
    "objectClass: inetOrgPerson",
    `uid: ${u.uid}`,
    `cn: ${u.givenName} ${u.sn}`,
    `sn: ${u.sn}`,
    `givenName: ${u.givenName}`,
    `mail: ${u.mail}`,
    // base64 (::) so that any character of a password survives LDIF
    `userPassword:: ${Buffer.from(u.password).toString("base64")}`,
  ].join("\n");
}

/**
 * Starts slapd with the test directory: users alice, bob, carol (no groups) and the user
 * "a*" (a name with a filter metacharacter), groups as in TEST_GROUPS, a service account.
 * memberOf: load the memberof overlay so entries carry memberOf for groupOfNames groups.
 */
export async function startTestDirectory(opts: { memberOf?: boolean } = {}): Promise<TestDirectory> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "switchdesk-slapd-"));
  const f = (n: string) => path.join(dir, n);
  let child: ChildProcess | null = null;
  let logText = "";
  const stop = async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const c = child;
      let kill: NodeJS.Timeout | undefined;
      let giveUp: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        c.once("exit", () => resolve());
        c.kill("SIGTERM");
        kill = setTimeout(() => c.kill("SIGKILL"), 5000);
        giveUp = setTimeout(resolve, 8000);
      });
      clearTimeout(kill);
      clearTimeout(giveUp);
    }
    if (child) live.delete(child);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const rootPassword = pw("root");
    fs.writeFileSync(f("root.pw"), rootPassword, { mode: 0o600 });
    fs.mkdirSync(f("data"));
    await makeCertificates(dir);
    fs.writeFileSync(f("slapd.conf"), slapdConf(dir, !!opts.memberOf));

    let ldapPort = 0;
    let ldapsPort = 0;
    for (let attempt = 0; attempt < 3 && !child; attempt++) {
      ldapPort = await freePort();
      ldapsPort = await freePort();
      // -d 256: stay in the foreground and log connections, binds and searches to stderr
      const c = spawn(
        SLAPD,
        ["-f", f("slapd.conf"), "-h", `ldap://127.0.0.1:${ldapPort}/ ldaps://127.0.0.1:${ldapsPort}/`, "-d", "256"],
        {
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      live.add(c);
      c.stdout.on("data", (d) => (logText += d));
      c.stderr.on("data", (d) => (logText += d));
      const started = Date.now();
      let up = false;
      while (Date.now() - started < 10_000 && c.exitCode === null) {
        if ((await accepts(ldapPort)) && (await accepts(ldapsPort))) {
          up = true;
          break;
        }
        await sleep(50);
      }
      if (up) child = c;
      else {
        c.kill("SIGKILL");
        live.delete(c);
        if (!/already in use/i.test(logText)) throw new Error(`slapd did not start:\n${logText.slice(-3000)}`);
      }
    }
    if (!child) throw new Error(`slapd did not start (ports in use):\n${logText.slice(-3000)}`);

    const ldapUrl = `ldap://127.0.0.1:${ldapPort}`;
    const modify = async (ldif: string, add = false) => {
      const file = f(`change-${crypto.randomBytes(4).toString("hex")}.ldif`);
      fs.writeFileSync(file, ldif.trim() + "\n");
      try {
        await run("ldapmodify", [
          ...(add ? ["-a"] : []),
          "-x",
          "-H",
          ldapUrl,
          "-D",
          ROOT_DN,
          "-y",
          f("root.pw"),
          "-f",
          file,
        ]);
      } finally {
        fs.rmSync(file, { force: true });
      }
    };

    const users: Record<string, DirectoryUser> = {};
    const person = (uid: string, givenName: string, sn: string, mail: string): DirectoryUser => ({
      uid,
      dn: userDn(uid),
      password: pw(uid.replace(/\W/g, "x")),
      givenName,
      sn,
      mail,
    });
    users.alice = person("alice", "Alice", "Liddell", "alice@example.org");
    users.bob = person("bob", "Bob", "Builder", "bob@example.org");
    users.carol = person("carol", "Carol", "Danvers", "carol@example.org");
    users["a*"] = person("a*", "Asterisk", "User", "asterisk@example.org");
    users["smith, j"] = person("smith, j", "Jo", "Smith", "jsmith@example.org");
    const servicePassword = pw("service");

    const base = [
      `dn: ${SUFFIX}\nobjectClass: dcObject\nobjectClass: organization\no: Example\ndc: example`,
      `dn: ${PEOPLE}\nobjectClass: organizationalUnit\nou: people`,
      `dn: ${GROUPS}\nobjectClass: organizationalUnit\nou: groups`,
      `dn: ou=services,${SUFFIX}\nobjectClass: organizationalUnit\nou: services`,
      `dn: ${SERVICE_DN}\nobjectClass: organizationalRole\nobjectClass: simpleSecurityObject\ncn: switchdesk\nuserPassword:: ${Buffer.from(servicePassword).toString("base64")}`,
      ...Object.values(users).map(userLdif),
      ...Object.entries(TEST_GROUPS).map(([cn, g], i) => groupLdif(cn, g.kind, g.members, 5000 + i)),
    ];
    await modify(base.join("\n\n"), true);

    return {
      ldapUrl,
      ldapsUrl: `ldaps://127.0.0.1:${ldapsPort}`,
      caFile: f("ca.pem"),
      otherCaFile: f("other-ca.pem"),
      serviceDn: SERVICE_DN,
      servicePassword,
      users,
      passwords: () => [rootPassword, servicePassword, ...Object.values(users).map((u) => u.password)],
      modify: (ldif: string) => modify(ldif),
      async addUser(uid, extra = {}) {
        const u = { ...person(uid, extra.givenName ?? uid, extra.sn ?? "Person", extra.mail ?? `${uid}@example.org`) };
        await modify(userLdif(u), true);
        users[uid] = u;
        return u;
      },
      log: () => logText,
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

/** A TCP server on 127.0.0.1 that accepts connections and never says a word. */
export async function startSilentServer(): Promise<{
  url: string;
  tlsUrl: string;
  connections(): number;
  stop(): Promise<void>;
}> {
  const sockets = new Set<net.Socket>();
  let count = 0;
  const srv = net.createServer((s) => {
    count++;
    sockets.add(s);
    s.on("error", () => undefined);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", () => r()));
  const port = (srv.address() as net.AddressInfo).port;
  return {
    url: `ldap://127.0.0.1:${port}`,
    tlsUrl: `ldaps://127.0.0.1:${port}`,
    connections: () => count,
    async stop() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => srv.close(() => r()));
    },
  };
}
