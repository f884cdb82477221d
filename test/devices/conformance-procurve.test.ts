/** The conformance suite (test/support/conformance.ts) on the procurve driver's subjects (test/support/subjects/procurve.ts). */
import { runSubjects } from "../support/conformance";
import { subjects } from "../support/subjects/procurve";

runSubjects(subjects);
