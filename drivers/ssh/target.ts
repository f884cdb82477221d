/**
 * How an SSH driver reaches its device. Like SnmpTarget, the caller hands secrets over
 * already decrypted; nothing here logs them or puts them into an error message.
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

/** "name (host:port)" or "host:port": how errors name the device. */
export function describeTarget(target: Pick<SshTarget, "host" | "port">, name?: string): string {
  const address = `${target.host}:${target.port}`;
  return name ? `${name} (${address})` : address;
}
