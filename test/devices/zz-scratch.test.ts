import { startLabSwitch } from "../../lab";
import { runTool } from "../support/snmp-client";
it("scratch", async () => {
  const lab = await startLabSwitch({ profile: (process.env.P ?? "cisco") as never, ports: 24, seed: 3 });
  try {
    for (const oid of (process.env.OIDS ?? "1.3.6.1").split(",")) {
      const r = await runTool("snmpbulkwalk", ["-v2c", "-c", process.env.C ?? "public", `127.0.0.1:${lab.port}`, oid]);
      console.log(oid + "\n" + r.stdout.split("\n").slice(0, Number(process.env.N ?? 400)).join("\n") + r.stderr);
    }
  } finally {
    await lab.stop();
  }
});
