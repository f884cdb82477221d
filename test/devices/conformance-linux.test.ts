/** The conformance suite (test/support/conformance.ts) on the linux_host driver's subjects (test/support/subjects/linux.ts). */
import { runSubjects } from "../support/conformance";
import { subjects } from "../support/subjects/linux";

// every SSH session opens a new connection into a network namespace; beside other such
// suites on a loaded 2-core machine a session took up to 15 s to start (alone: under 1 s)
jest.setTimeout(60_000);

runSubjects(subjects);
