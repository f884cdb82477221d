/**
 * The faces a lab switch shows besides SNMP, by profile: the IOS command line over SSH for
 * the Cisco profile, the AOS-CX REST API for Aruba CX, eAPI for Arista, NETCONF for
 * Juniper. Each works on the switch's one model, so a change made through one face is
 * seen through the others. `switchdesk lab` starts them all and says how to reach them.
 */
import { startLabAoscxFace } from "./aoscx/server";
import { startLabEapiFace } from "./eapi/server";
import { startLabNetconfFace } from "./netconf/face";
import type { ProfileId } from "./profiles";
import { startLabSshFace } from "./ssh/server";
import type { LabSwitch } from "./types";

/** How a started face is reached, as `switchdesk lab --json` prints it. */
export interface FaceAccess {
  host: string;
  port: number;
  username: string;
  password: string;
  /** the TLS certificate's SHA-256 (colon hex) or the SSH host key's "SHA256:..." */
  fingerprint: string;
}

export type ApiFaceKind = "ssh" | "aoscx" | "eapi" | "netconf";

export interface StartedFace {
  kind: ApiFaceKind;
  access: FaceAccess;
  /** one line for people: what it is and how to log in */
  describe(): string;
  stop(): Promise<void>;
}

type FaceStarter = (lab: LabSwitch) => Promise<StartedFace>;

/** what every face reports about itself */
interface FaceHandle {
  host: string;
  port: number;
  username: string;
  password: string;
  stop(): Promise<void>;
}

/** a face started by `start`, reported with its fingerprint and a line for people */
function face<F extends FaceHandle>(
  kind: ApiFaceKind,
  start: (lab: LabSwitch) => Promise<F>,
  fingerprint: (f: F) => string,
  describe: (f: F) => string,
): FaceStarter {
  return async (lab) => {
    const f = await start(lab);
    const { host, port, username, password } = f;
    return {
      kind,
      access: { host, port, username, password, fingerprint: fingerprint(f) },
      describe: () => describe(f),
      stop: () => f.stop(),
    };
  };
}

const sshIos = face(
  "ssh",
  (lab) => startLabSshFace(lab),
  (f) => f.hostKeyFingerprint,
  (f) =>
    `IOS command line: ssh -p ${f.port} ${f.username}@${f.host} (password "${f.password}", enable "${f.enableSecret}", host key ${f.hostKeyFingerprint})`,
);

const aoscx = face(
  "aoscx",
  (lab) => startLabAoscxFace(lab),
  (f) => f.fingerprint,
  (f) =>
    `AOS-CX REST: https://${f.host}:${f.port}/rest (user ${f.username}, password "${f.password}", certificate ${f.fingerprint})`,
);

const eapi = face(
  "eapi",
  (lab) => startLabEapiFace(lab),
  (f) => f.fingerprint,
  (f) =>
    `eAPI: https://${f.host}:${f.port}/command-api (user ${f.username}, password "${f.password}", certificate ${f.fingerprint})`,
);

const netconf = face(
  "netconf",
  (lab) => startLabNetconfFace(lab),
  (f) => f.fingerprint,
  (f) =>
    `Junos NETCONF: ssh -p ${f.port} ${f.username}@${f.host} -s netconf (password "${f.password}", host key ${f.fingerprint})`,
);

/** The faces beside SNMP that each profile has. */
export const FACES_BY_PROFILE: Partial<Record<ProfileId, readonly FaceStarter[]>> = {
  cisco: [sshIos],
  arubacx: [aoscx],
  arista: [eapi],
  juniper: [netconf],
};

/** Starts every face the switch's profile has; on a failure stops those already started. */
export async function startFaces(lab: LabSwitch): Promise<StartedFace[]> {
  const started: StartedFace[] = [];
  try {
    for (const start of FACES_BY_PROFILE[lab.options.profile] ?? []) started.push(await start(lab));
  } catch (e) {
    await Promise.all(started.map((f) => f.stop()));
    throw e;
  }
  return started;
}
