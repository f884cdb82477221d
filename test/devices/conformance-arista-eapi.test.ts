/** The conformance suite (test/support/conformance.ts, trunks: conformance-trunks.ts) on the arista_eapi driver's subjects (test/support/subjects/arista-eapi.ts). */
import { runSubjects } from "../support/conformance";
import { runTrunkSubjects } from "../support/conformance-trunks";
import { subjects } from "../support/subjects/arista-eapi";

runSubjects(subjects);
runTrunkSubjects(subjects);
