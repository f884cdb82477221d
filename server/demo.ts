/**
 * The built-in lab for a newcomer. With SWITCHDESK_DEMO=auto (the default) three
 * simulated switches start on 127.0.0.1 when the inventory holds no device of its own,
 * and the application puts them in the `Demo` group (app/demo-inventory.ts). When the lab
 * does not start, its devices are set inactive so nobody waits on them.
 */
import type { Services } from "../app/services";
import type { LabSwitch } from "../lab";
import { DEMO_GROUP, hasOwnDevices, registerDemoDevices, retireDemoDevices } from "../app/demo-inventory";

export async function startDemoIfWanted(
  s: Services,
  say: (line: string) => void,
): Promise<{ stop(): Promise<void>; switches: LabSwitch[] } | null> {
  const wanted = s.config.demo === "on" || (s.config.demo === "auto" && !(await hasOwnDevices(s)));
  if (!wanted) {
    await retireDemoDevices(s);
    return null;
  }
  const { startDemoLab } = await import("../lab");
  const lab = await startDemoLab();
  const stop = async () => void (await Promise.all(lab.map((l) => l.stop())));
  try {
    const community = lab[0].snmpTarget({ write: true }).community!;
    const devices = lab.map((l) => ({
      name: l.options.name,
      description: `lab switch: ${l.options.ports} ports, ${l.options.profile}`,
      udpPort: l.port,
    }));
    await registerDemoDevices(s, community, devices);
  } catch (e) {
    await stop();
    throw e;
  }
  say(
    `Demo lab: ${lab.length} simulated switches in group '${DEMO_GROUP}' on 127.0.0.1 (` +
      lab.map((l) => `${l.options.name}: ${l.options.ports} ports, ${l.options.profile}, udp/${l.port}`).join("; ") +
      `). Set SWITCHDESK_DEMO=0 to turn it off; it stays off once you add a device of your own.`,
  );
  return { switches: lab, stop };
}
