/** The conformance suite (test/support/conformance.ts) on the generic driver's subjects (test/support/subjects/generic.ts). */
import { runSubjects } from "../support/conformance";
import { subjects } from "../support/subjects/generic";

runSubjects(subjects);
