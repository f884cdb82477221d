/** Conformance subjects of the Linux host driver (SSH): real OpenSSH in a network namespace. */
import type { LinuxHostDriver } from "../../../drivers/families/linux/driver";
import type { Subject } from "../conformance";
import { netnsSshdUnavailable, startNetnsSshd } from "../netns-sshd";

export const subjects: Subject[] = [
  {
    kind: "real",
    driver: "linux_host",
    label: "OpenSSH in a network namespace with veth ports",
    unknownId: "nosuchlink0",
    // `ip -j -d addr show`
    learnInterfacesRequests: { most: 1, commands: (d) => (d as LinuxHostDriver).commands },
    unavailable: netnsSshdUnavailable(),
    async start() {
      const sshd = await startNetnsSshd(2);
      const link = (name: string) => sshd.links().find((l) => l.ifname === name)!;
      return {
        connection: {
          connector: 7,
          ssh: {
            host: sshd.host,
            port: sshd.port,
            username: "root",
            private_key: sshd.privateKey,
            host_key_fingerprint: sshd.hostKeyFingerprint,
            connect_timeout_ms: 5000,
            command_timeout_ms: 20000,
          },
        },
        port: sshd.ports[0],
        adminUp: (port) => link(port).flags.includes("UP"),
        description: (port) => link(port).ifalias ?? "",
        portNames: () => sshd.links().map((l) => l.ifname),
        stop: () => sshd.stop(),
      };
    },
  },
];
