/** Every repository over one store, built once per process. */
import type { Store } from "./connect";
import { UserRepo } from "./users";
import { SessionRepo, TokenRepo } from "./tokens";
import { AuditRepo, UsageRepo } from "./audit";
import { InventoryRepo } from "./inventory";
import { LoginFailureRepo } from "./login-failures";

export interface Repos {
  users: UserRepo;
  tokens: TokenRepo;
  sessions: SessionRepo;
  audit: AuditRepo;
  usage: UsageRepo;
  inventory: InventoryRepo;
  loginFailures: LoginFailureRepo;
}

export function makeRepos(store: Store): Repos {
  return {
    users: new UserRepo(store.db),
    tokens: new TokenRepo(store.db),
    sessions: new SessionRepo(store.db),
    audit: new AuditRepo(store.db),
    usage: new UsageRepo(store.db, store.dialect),
    inventory: new InventoryRepo(store.db),
    loginFailures: new LoginFailureRepo(store.db),
  };
}
