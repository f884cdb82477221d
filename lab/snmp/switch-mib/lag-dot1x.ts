/**
 * Link aggregation and 802.1X as a switch with them configured serves them: the
 * IEEE8023-LAG-MIB aggregator and aggregation port tables, the ifStackTable rows of the
 * aggregate over its members, and IEEE8021-PAE-MIB's port control per Ethernet port.
 * Only a switch given LAG members (LabSwitchOptions.lagPorts) or 802.1X ports
 * (dot1xPorts) serves them; the others stay as they were (no such tables).
 *
 * A member selects its aggregate always and is attached to it only while its link is up,
 * as the standard has it (dot3adAggPortAttachedAggID is 0 on a member that is down).
 */
import { lag, ifExtra } from "../../../mib/standard-extra";
import { pae, paePortControl, paeSystemAuthControl } from "../../../mib/pae";
import type { LabInterface, VirtualSwitch } from "../../model";
import type { MibIndexBuilder } from "../mib-index";
import { integer } from "../../../mib/smi-values";

/** the actor key of the aggregate (and of its members); a port that is no member has a key of its own */
const AGGREGATE_KEY = 1;
const ownKey = (i: LabInterface) => 1000 + (i.portNumber ?? 0);

export function addLagAndDot1x(b: MibIndexBuilder, sw: VirtualSwitch): void {
  const ports = sw.ethernetPorts;
  const byIf = (i: { ifIndex: number }) => [i.ifIndex];
  const members = ports.filter((p) => p.lagMemberOf !== undefined);
  if (members.length > 0) {
    const aggregates = sw.interfaces.filter((i) => members.some((m) => m.lagMemberOf === i.ifIndex));
    b.column(lag.dot3adAggActorAdminKey, aggregates, byIf, () => integer(AGGREGATE_KEY)).column(
      lag.dot3adAggActorOperKey,
      aggregates,
      byIf,
      () => integer(AGGREGATE_KEY),
    );
    const key = (i: LabInterface) => integer(i.lagMemberOf !== undefined ? AGGREGATE_KEY : ownKey(i));
    b.column(lag.dot3adAggPortActorAdminKey, ports, byIf, key)
      .column(lag.dot3adAggPortActorOperKey, ports, byIf, key)
      .column(lag.dot3adAggPortSelectedAggID, ports, byIf, (i) => integer(i.lagMemberOf ?? 0))
      .column(lag.dot3adAggPortAttachedAggID, ports, byIf, (i) =>
        integer(i.lagMemberOf !== undefined && sw.operUp(i.ifIndex) ? i.lagMemberOf : 0),
      );
    // ifStackStatus.<higher>.<lower> = active(1): the aggregate over each member
    b.column(
      ifExtra.ifStackStatus,
      members,
      (m) => [m.lagMemberOf!, m.ifIndex],
      () => integer(1),
    );
  }
  if (ports.some((p) => p.dot1x)) {
    b.scalar(pae.dot1xPaeSystemAuthControl, () => integer(paeSystemAuthControl.enabled));
    b.column(pae.dot1xAuthAuthControlledPortControl, ports, byIf, (i) =>
      integer(i.dot1x ? paePortControl.auto : paePortControl.forceAuthorized),
    );
  }
}
