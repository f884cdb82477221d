/** The conformance suite (test/support/conformance.ts, trunks: conformance-trunks.ts) on the aruba_aoscx driver's subjects (test/support/subjects/aruba-aoscx.ts). */
import { runSubjects } from "../support/conformance";
import { runTrunkSubjects } from "../support/conformance-trunks";
import { subjects } from "../support/subjects/aruba-aoscx";

runSubjects(subjects);
runTrunkSubjects(subjects);
