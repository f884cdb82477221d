/** The generic family: everything of Q-BRIDGE, read and write (the Q-BRIDGE mode decides how writes move ports). */
import type { FamilyFactory } from "../family";
import { qbridgeFamily } from "../standard";

export const genericFamily: FamilyFactory = (sw, env) => qbridgeFamily(sw, env);
