/**
 * How a device is reached, with its secrets already decrypted by the application. The lab
 * hands out targets for its simulated switches in the same shape.
 */

/**
 * The bounds the service gives a device it manages (app/devices.ts); tests that are not
 * about time use them too. SSH: connecting and logging in together; one command from
 * sending to its output.
 */
export const SSH_CONNECT_TIMEOUT_MS = 10_000;
export const SSH_COMMAND_TIMEOUT_MS = 20_000;
/** HTTPS APIs: TCP and TLS handshake; one request to the end of its answer (a stack's tables are large) */
export const HTTPS_CONNECT_TIMEOUT_MS = 10_000;
export const HTTPS_REQUEST_TIMEOUT_MS = 30_000;

/** How a driver reaches its device; secrets already decrypted by the caller. */
export interface SnmpTarget {
  host: string;
  port: number;
  version: "2c" | "3";
  community?: string;
  /** SNMPv3 */
  username?: string;
  auth_protocol?: "MD5" | "SHA" | "SHA-224" | "SHA-256" | "SHA-384" | "SHA-512";
  auth_key?: string;
  priv_protocol?: "DES" | "AES" | "AES-192" | "AES-256";
  priv_key?: string;
  context?: string;
  timeout_ms: number;
  retries: number;
}

/**
 * How an SSH driver reaches its device. The caller hands secrets over already decrypted;
 * nothing logs them or puts them into an error message.
 */
export interface SshTarget {
  host: string;
  port: number;
  username: string;
  password?: string;
  /** private key text (OpenSSH or PEM); tried before the password when both are set */
  private_key?: string;
  passphrase?: string;
  /** secret of the command line's `enable`, for logins that land in user mode */
  enable_secret?: string;
  /**
   * The host key fingerprint accepted earlier ("SHA256:base64", as `ssh-keygen -l`
   * prints it). Absent: any key is accepted and reported (trust on first use), so the
   * caller can pin it; present: another key fails with HostKeyChanged.
   */
  host_key_fingerprint?: string;
  /** TCP connect, SSH handshake and login together */
  connect_timeout_ms: number;
  /** one command, from sending it to the prompt (or exit) after its output */
  command_timeout_ms: number;
}

/**
 * How an HTTPS API driver (AOS-CX REST, Arista eAPI) reaches its device. Switches present
 * self-signed certificates: without `ca` the certificate is pinned by its fingerprint
 * (trust on first use, as SSH host keys); with `ca` it is verified against that CA instead.
 */
export interface HttpsTarget {
  host: string;
  port: number;
  username: string;
  password: string;
  /**
   * The certificate fingerprint accepted earlier: SHA-256 of its DER, colon-separated hex
   * ("AB:CD:..."), as `openssl x509 -noout -fingerprint -sha256` prints it. Absent (and no
   * `ca`): any certificate is accepted and reported, so the caller can pin it; present:
   * another certificate fails with CertificateChanged before anything is sent.
   */
  certificate_fingerprint?: string;
  /** PEM of the CA certificate(s) to verify the device's certificate (and name) against */
  ca?: string;
  /** TCP connect and TLS handshake */
  connect_timeout_ms: number;
  /** one request, from sending it to the end of its answer */
  request_timeout_ms: number;
}

/**
 * How a device is reached: its connector (OpenL2M's numbers: 0 SNMP, 1 Aruba AOS-CX REST,
 * 2 Junos NETCONF over SSH, 3 Arista eAPI; switchdesk's 7: SSH command line) with the
 * target of that transport.
 */
export type Connection =
  | { connector: 0; snmp: SnmpTarget }
  | { connector: 1; https: HttpsTarget }
  | { connector: 2; ssh: SshTarget }
  | { connector: 3; https: HttpsTarget }
  | { connector: 7; ssh: SshTarget };

/** OpenL2M's connector numbers, and switchdesk's 7. */
export const CONNECTOR = { snmp: 0, aoscx: 1, netconf: 2, eapi: 3, ssh: 7 } as const;
