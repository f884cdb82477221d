/** The conformance suite (test/support/conformance.ts, trunks: conformance-trunks.ts) on the comware driver's subjects (test/support/subjects/comware.ts). */
import { runSubjects } from "../support/conformance";
import { runTrunkSubjects } from "../support/conformance-trunks";
import { subjects } from "../support/subjects/comware";

runSubjects(subjects);
runTrunkSubjects(subjects);
