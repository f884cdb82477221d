/** The conformance suite (test/support/conformance.ts) on the arista driver's subjects (test/support/subjects/arista.ts). */
import { runSubjects } from "../support/conformance";
import { subjects } from "../support/subjects/arista";

runSubjects(subjects);
