/**
 * A lab switch in a process of its own, for benchmarks that measure their own process's
 * CPU without the agent's (bench/snmp-client.ts): started with fork(), argument the
 * number of ports; sends its SNMP port to the parent and runs until killed.
 */
import { startLabSwitch } from "../lab";

startLabSwitch({ ports: Number(process.argv[2]) || 48, poePorts: "all", name: "bench-client" }).then(
  (lab) => process.send?.(lab.port),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
