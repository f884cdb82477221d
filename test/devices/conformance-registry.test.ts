/**
 * The conformance suite's subjects against the registry: every registered driver has at
 * least one, and what its registry entry says it was proven against (the README's table)
 * is exactly its subjects. The suite itself runs per family (conformance-<family>.test.ts).
 */
import { everyDriverHasASubject } from "../support/conformance";
import { ALL_SUBJECTS, recordingsServed } from "../support/subjects";

everyDriverHasASubject(ALL_SUBJECTS, { recordingsServed });
