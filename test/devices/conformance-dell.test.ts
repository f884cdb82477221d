/** The conformance suite (test/support/conformance.ts) on the dell driver's subjects (test/support/subjects/dell.ts). */
import { runSubjects } from "../support/conformance";
import { subjects } from "../support/subjects/dell";

runSubjects(subjects);
