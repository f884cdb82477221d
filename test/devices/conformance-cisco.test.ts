/** The conformance suite (test/support/conformance.ts, trunks: conformance-trunks.ts) on the cisco driver's subjects (test/support/subjects/cisco.ts). */
import { runSubjects } from "../support/conformance";
import { runTrunkSubjects } from "../support/conformance-trunks";
import { subjects } from "../support/subjects/cisco";

runSubjects(subjects);
runTrunkSubjects(subjects);
