/** The conformance suite (test/support/conformance.ts) on the ciscosb driver's subjects (test/support/subjects/ciscosb.ts). */
import { runSubjects } from "../support/conformance";
import { subjects } from "../support/subjects/ciscosb";

runSubjects(subjects);
