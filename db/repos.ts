/** Every repository over one store, built once per process. */
import type { Kysely } from "kysely";
import type { Store } from "./connect";
import type { Database } from "./schema";
import { atomic } from "./atomic";
import { UserRepo } from "./users";
import { SessionRepo, TokenRepo } from "./tokens";
import { AuditRepo, UsageRepo } from "./audit";
import { InventoryRepo } from "./inventory";
import { LoginFailureRepo } from "./login-failures";
import { LeaseRepo } from "./leases";
import { PendingUpRepo } from "./pending-ups";

export interface Repos {
  /** `fn` with repositories whose every write is in one transaction: all of them or none */
  atomically<T>(fn: (repos: Repos) => Promise<T>): Promise<T>;
  users: UserRepo;
  tokens: TokenRepo;
  sessions: SessionRepo;
  audit: AuditRepo;
  usage: UsageRepo;
  inventory: InventoryRepo;
  loginFailures: LoginFailureRepo;
  /** one lease row per device: writes to a device in order across instances */
  deviceLeases: LeaseRepo;
  /** ports a bounce or PoE cycle switched off and not yet on again (app/port-cycles.ts) */
  pendingUps: PendingUpRepo;
}

export function makeRepos(store: Store): Repos {
  return reposOver(store.db, store.dialect);
}

function reposOver(db: Kysely<Database>, dialect: Store["dialect"]): Repos {
  return {
    atomically: (fn) => atomic(db, (tx) => fn(reposOver(tx, dialect))),
    users: new UserRepo(db),
    tokens: new TokenRepo(db),
    sessions: new SessionRepo(db),
    audit: new AuditRepo(db),
    usage: new UsageRepo(db, dialect),
    inventory: new InventoryRepo(db),
    loginFailures: new LoginFailureRepo(db, dialect),
    deviceLeases: new LeaseRepo(db, "device_leases"),
    pendingUps: new PendingUpRepo(db),
  };
}
