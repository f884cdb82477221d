/** The conformance suite (test/support/conformance.ts, trunks: conformance-trunks.ts) on the cisco_ios_cli driver's subjects (test/support/subjects/cisco-ios-cli.ts). */
import { runSubjects } from "../support/conformance";
import { runTrunkSubjects } from "../support/conformance-trunks";
import { subjects } from "../support/subjects/cisco-ios-cli";

runSubjects(subjects);
runTrunkSubjects(subjects);
