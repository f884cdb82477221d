/** The conformance suite (test/support/conformance.ts) on the arubacx driver's subjects (test/support/subjects/arubacx.ts). */
import { runSubjects } from "../support/conformance";
import { subjects } from "../support/subjects/arubacx";

runSubjects(subjects);
