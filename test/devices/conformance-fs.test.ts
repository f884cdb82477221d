/** The conformance suite (test/support/conformance.ts) on the fs driver's subjects (test/support/subjects/fs.ts). */
import { runSubjects } from "../support/conformance";
import { subjects } from "../support/subjects/fs";

runSubjects(subjects);
