/** The conformance suite (test/support/conformance.ts) on the juniper driver's subjects (test/support/subjects/juniper.ts). */
import { runSubjects } from "../support/conformance";
import { subjects } from "../support/subjects/juniper";

runSubjects(subjects);
