/** The conformance suite (test/support/conformance.ts) on the linux_host driver's subjects (test/support/subjects/linux.ts). */
import { runSubjects } from "../support/conformance";
import { subjects } from "../support/subjects/linux";

runSubjects(subjects);
