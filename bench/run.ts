/**
 * npm run bench: every benchmark, each printing its own figures and its ratio against a
 * baseline measured in the same run.
 *  - lab-agent: the lab agent's own processing of a 1,000-value GetBulk vs net-snmp's agent
 *  - snmp-learn: learning a switch with read plans vs OpenL2M's one-column-at-a-time walks
 */
import { main as labAgent } from "./lab-agent";
import { main as snmpLearn } from "./snmp-learn";

async function run(): Promise<void> {
  console.log("== lab agent ==");
  await labAgent();
  console.log("\n== learning a switch ==");
  await snmpLearn();
}

run().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
