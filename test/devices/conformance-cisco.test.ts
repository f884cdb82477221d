/** The conformance suite (test/support/conformance.ts) on the cisco driver's subjects (test/support/subjects/cisco.ts). */
import { runSubjects } from "../support/conformance";
import { subjects } from "../support/subjects/cisco";

runSubjects(subjects);
