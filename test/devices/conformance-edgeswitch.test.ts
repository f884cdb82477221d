/** The conformance suite (test/support/conformance.ts) on the edgeswitch driver's subjects (test/support/subjects/edgeswitch.ts). */
import { runSubjects } from "../support/conformance";
import { subjects } from "../support/subjects/edgeswitch";

runSubjects(subjects);
