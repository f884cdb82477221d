/** The conformance suite (test/support/conformance.ts) on the comware driver's subjects (test/support/subjects/comware.ts). */
import { runSubjects } from "../support/conformance";
import { subjects } from "../support/subjects/comware";

runSubjects(subjects);
