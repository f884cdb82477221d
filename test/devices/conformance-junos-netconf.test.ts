/** The conformance suite (test/support/conformance.ts, trunks: conformance-trunks.ts) on the junos_netconf driver's subjects (test/support/subjects/junos-netconf.ts). */
import { runSubjects } from "../support/conformance";
import { runTrunkSubjects } from "../support/conformance-trunks";
import { subjects } from "../support/subjects/junos-netconf";

runSubjects(subjects);
runTrunkSubjects(subjects);
