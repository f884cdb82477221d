/** Who is calling: a user with either an API token or a web UI session. */
import type { User } from "../db/users";
import type { TokenRecord, SessionRecord } from "../db/tokens";

export interface Caller {
  user: User;
  /** null when the caller uses a web UI session */
  token: TokenRecord | null;
  session: SessionRecord | null;
}
