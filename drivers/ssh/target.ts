/** How SSH errors name a device. The target itself is model/targets.ts. */
import type { SshTarget } from "../../model/targets";

export type { SshTarget } from "../../model/targets";

/** "name (host:port)" or "host:port": how errors name the device. */
export function describeTarget(target: Pick<SshTarget, "host" | "port">, name?: string): string {
  const address = `${target.host}:${target.port}`;
  return name ? `${name} (${address})` : address;
}
