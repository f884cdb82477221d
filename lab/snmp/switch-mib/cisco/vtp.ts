/**
 * CISCO-VTP-MIB VLANs: the management domain, vtpVlanTable and the edit buffer. IOS has
 * no Q-BRIDGE VLAN tables; VLANs are created, renamed and deleted by copying the VLAN
 * table into the edit buffer (vtpVlanEditOperation copy, with vtpVlanEditBufferOwner),
 * editing vtpVlanEditTable rows, then apply (the outcome in vtpVlanApplyStatus) and
 * release. A VTP client cannot change VLANs: the lab refuses its copy and apply with
 * inconsistentValue, so a manager sees the refusal at once.
 *
 * Deliberate simplifications: VLANs live in the running configuration in every mode
 * (a real server keeps them in vlan.dat, saved at once); deleting a VLAN that is still
 * some port's access or native VLAN fails the apply with inconsistentEdit (IOS would
 * leave those ports inactive); there is no deadman timer on the buffer.
 */
import { vtp } from "../../../../mib/cisco";
import { carryNewVlan } from "../../../config";
import type { VirtualSwitch } from "../../../model";
import type { MibIndexBuilder } from "../../mib-index";
import { parseOid } from "../../oid";
import { gauge, integer, noSuchInstance, octets, type SnmpValue } from "../../../../mib/smi-values";
import type { FamilyState } from "../family-state";
import {
  E,
  hasControlChars,
  isInt,
  plain,
  RowStatus,
  rowPhase,
  type SetTransaction,
  type WritableColumn,
} from "../writable";
import { VTP_MODE_OF, VTP_MODE_VALUE, type CiscoState, type EditRow } from "./state";

/** managementDomainIndex of the one domain */
export const DOMAIN = 1;
export const DOMAIN_NAME = "lab";

// CISCO-VTP-MIB columns mib/cisco.ts does not list (OIDs as defined there)
const managementDomainPruningState = "1.3.6.1.4.1.9.9.46.1.2.1.1.10"; // 1 enabled, 2 disabled
const managementDomainVersionInUse = "1.3.6.1.4.1.9.9.46.1.2.1.1.11"; // 1 version1, 2 version2, 4 version3
const vtpVlanDot10Said = "1.3.6.1.4.1.9.9.46.1.3.1.1.6"; // 4 octets

/** The VLANs VTP always has for FDDI and Token Ring, as IOS reports them (state suspended, as recorded). */
export const RESERVED_VLANS: ReadonlyArray<{ id: number; type: number; name: string }> = [
  { id: 1002, type: 2, name: "fddi-default" },
  { id: 1003, type: 3, name: "token-ring-default" },
  { id: 1004, type: 4, name: "fddinet-default" },
  { id: 1005, type: 5, name: "trnet-default" },
];
const reserved = new Map(RESERVED_VLANS.map((v) => [v.id, v]));

const saidOf = (id: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(100000 + id);
  return b;
};

/** The VLAN table as the edit buffer's copy sees it: running VLANs plus the reserved ones. */
function vlanTableRows(sw: VirtualSwitch, cfg = sw.running): Map<number, EditRow> {
  const rows = new Map<number, EditRow>();
  for (const [id, v] of cfg.vlans) {
    rows.set(id, {
      state: v.active ? 1 : 2,
      type: 1,
      name: v.name,
      mtu: 1500,
      said: saidOf(id),
      rowStatus: RowStatus.active,
    });
  }
  for (const r of RESERVED_VLANS)
    rows.set(r.id, {
      state: 2,
      type: r.type,
      name: r.name,
      mtu: 1500,
      said: saidOf(r.id),
      rowStatus: RowStatus.active,
    });
  return new Map([...rows].sort(([a], [b]) => a - b));
}

export function addVtpFixed(b: MibIndexBuilder, state: FamilyState<CiscoState>): void {
  const s = () => state.current();
  const domains = [DOMAIN];
  const byDomain = () => [DOMAIN];
  b.scalar(vtp.vtpVersion, () => integer(2))
    .column(vtp.managementDomainName, domains, byDomain, () => octets(DOMAIN_NAME))
    .column(vtp.managementDomainLocalMode, domains, byDomain, () => integer(VTP_MODE_VALUE[s().vtpMode]))
    .column(vtp.managementDomainConfigRevNumber, domains, byDomain, () => gauge(s().revision))
    .column(vtp.managementDomainRowStatus, domains, byDomain, () => integer(1))
    .column(managementDomainPruningState, domains, byDomain, () => integer(2))
    .column(managementDomainVersionInUse, domains, byDomain, () => integer(2))
    // vtpEditControlTable AUGMENTS the domain
    .column(vtp.vtpVlanEditOperation, domains, byDomain, () => integer(1))
    .column(vtp.vtpVlanApplyStatus, domains, byDomain, () => integer(s().applyStatus))
    .column(vtp.vtpVlanEditBufferOwner, domains, byDomain, () => octets(s().owner))
    .column(vtp.vtpVlanEditConfigRevNumber, domains, byDomain, () => gauge(s().editRevision))
    .column(vtp.vtpVlanEditModifiedVlan, domains, byDomain, () => integer(0));
}

export function addVtpRows(
  b: MibIndexBuilder,
  sw: VirtualSwitch,
  state: FamilyState<CiscoState>,
  sviIfIndex: number,
): void {
  const ids = [...vlanTableRows(sw).keys()];
  const byVlan = (id: number) => [DOMAIN, id];
  const vlanValue = (id: number, f: (r: EditRow) => SnmpValue) => {
    const row = vlanTableRows(sw).get(id);
    return row ? f(row) : noSuchInstance;
  };
  b.column(vtp.vtpVlanState, ids, byVlan, (id) => vlanValue(id, (r) => integer(r.state)))
    .column(vtp.vtpVlanType, ids, byVlan, (id) => vlanValue(id, (r) => integer(r.type)))
    .column(vtp.vtpVlanName, ids, byVlan, (id) => vlanValue(id, (r) => octets(r.name ?? "")))
    .column(vtp.vtpVlanMtu, ids, byVlan, (id) => vlanValue(id, (r) => integer(r.mtu)))
    .column(vtpVlanDot10Said, ids, byVlan, (id) => vlanValue(id, (r) => octets(r.said ?? saidOf(id))))
    .column(vtp.vtpVlanIfIndex, ids, byVlan, (id) => integer(id === 1 ? sviIfIndex : 0));

  const buffer = state.current().buffer;
  const editIds = buffer ? [...buffer.keys()].sort((x, y) => x - y) : [];
  const editValue = (id: number, f: (r: EditRow) => SnmpValue) => {
    const row = state.current().buffer?.get(id);
    return row ? f(row) : noSuchInstance;
  };
  b.object(vtp.vtpVlanEditRowStatus);
  b.column(vtp.vtpVlanEditState, editIds, byVlan, (id) => editValue(id, (r) => integer(r.state)))
    .column(vtp.vtpVlanEditType, editIds, byVlan, (id) => editValue(id, (r) => integer(r.type)))
    .column(vtp.vtpVlanEditName, editIds, byVlan, (id) =>
      editValue(id, (r) => (r.name === null ? noSuchInstance : octets(r.name))),
    )
    .column(vtp.vtpVlanEditMtu, editIds, byVlan, (id) => editValue(id, (r) => integer(r.mtu)))
    .column(vtp.vtpVlanEditDot10Said, editIds, byVlan, (id) =>
      editValue(id, (r) => (r.said === null ? noSuchInstance : octets(r.said))),
    )
    .column(vtp.vtpVlanEditRowStatus, editIds, byVlan, (id) => editValue(id, (r) => integer(r.rowStatus)));
}

/** VLANs edited through the buffer must stay in the normal range while VTP (version 2) is a server or client. */
const MAX_VTP_VLAN = 1005;

/**
 * apply: checks the buffer and, if consistent, makes it the VLAN table (staged with the
 * rest of the PDU). Returns the vtpVlanApplyStatus.
 */
function apply(tx: SetTransaction, s: CiscoState): number {
  const buffer = s.buffer;
  if (!buffer || buffer.size === 0) return 8; // editBufferEmpty
  if (s.editRevision <= s.revision && s.vtpMode !== "transparent" && s.vtpMode !== "off") return 3; // configNumberError
  for (const [id, row] of buffer) {
    if (row.rowStatus !== RowStatus.active || row.name === null || row.said === null) return 4; // inconsistentEdit
    const fixed = reserved.get(id);
    if (fixed ? row.type !== fixed.type : row.type !== 1) return 4;
    if (!fixed && s.vtpMode === "server" && id > MAX_VTP_VLAN) return 4;
  }
  if (!buffer.has(1) || RESERVED_VLANS.some((r) => !buffer.has(r.id))) return 4;
  const cfg = tx.view();
  const inUse = new Set(cfg.pvid.values());
  for (const id of cfg.vlans.keys()) if (!buffer.has(id) && inUse.has(id)) return 4;
  const ethernet = [...buffer.keys()].filter((id) => !reserved.has(id));
  if (ethernet.length > tx.sw.profile.maxVlans) return 5; // tooBig

  const next = tx.config();
  for (const id of [...next.vlans.keys()]) {
    if (buffer.has(id)) continue;
    next.vlans.delete(id);
    tx.membershipVarbind ||= 1;
  }
  for (const id of ethernet) {
    const row = buffer.get(id)!;
    const v = next.vlans.get(id);
    if (v) {
      v.name = row.name!;
      v.active = row.state === 1;
    } else {
      next.vlans.set(id, { name: row.name!, active: row.state === 1, egress: new Set(), untagged: new Set() });
      // trunks allowing it carry it at once
      carryNewVlan(next, id);
    }
  }
  if (s.vtpMode === "server") s.revision = s.editRevision;
  return 2; // succeeded
}

export function vtpColumns(state: FamilyState<CiscoState>, sw: VirtualSwitch): WritableColumn[] {
  const domainOf = (instance: number[]) => (instance.length === 1 && instance[0] === DOMAIN ? DOMAIN : null);
  const edit = (instance: number[]) =>
    instance.length === 2 && instance[0] === DOMAIN && instance[1] >= 1 && instance[1] <= 4094 ? instance[1] : null;
  const OWNER_NOTE = "vtpOwner";

  const localMode: WritableColumn = {
    column: parseOid(vtp.managementDomainLocalMode),
    phase: plain,
    apply(tx, instance, value) {
      if (!isInt(value)) return E.wrongType;
      const mode = VTP_MODE_OF[value.value];
      if (!mode) return E.wrongValue;
      if (domainOf(instance) === null) return E.noCreation;
      tx.state(state).vtpMode = mode;
      return E.noError;
    },
  };

  const owner: WritableColumn = {
    column: parseOid(vtp.vtpVlanEditBufferOwner),
    phase: plain,
    apply(tx, instance, value) {
      if (value.tag !== 0x04) return E.wrongType;
      if (value.value.length > 127) return E.wrongLength;
      if (domainOf(instance) === null) return E.noCreation;
      const text = value.value.toString("utf8");
      tx.notes.set(OWNER_NOTE, text);
      tx.state(state).owner = text;
      return E.noError;
    },
  };

  const editRevision: WritableColumn = {
    column: parseOid(vtp.vtpVlanEditConfigRevNumber),
    phase: plain,
    apply(tx, instance, value) {
      if (value.tag !== 0x42) return E.wrongType;
      if (domainOf(instance) === null) return E.noCreation;
      tx.state(state).editRevision = value.value;
      return E.noError;
    },
  };

  // copy, apply and release act after the other varbinds of the PDU (an owner or a row
  // edit given in the same PDU is already staged)
  const operation: WritableColumn = {
    column: parseOid(vtp.vtpVlanEditOperation),
    phase: () => 2,
    apply(tx, instance, value) {
      if (!isInt(value)) return E.wrongType;
      if (value.value < 1 || value.value > 5) return E.wrongValue;
      if (domainOf(instance) === null) return E.noCreation;
      const s = tx.state(state);
      switch (value.value) {
        case 2: // copy
          if (s.vtpMode === "client") return E.inconsistentValue;
          if (s.buffer) return E.inconsistentValue; // in use: release it first
          s.buffer = vlanTableRows(sw, tx.view());
          s.owner = (tx.notes.get(OWNER_NOTE) as string | undefined) ?? "";
          s.editRevision = s.revision + 1;
          return E.noError;
        case 3: // apply
          if (s.vtpMode === "client") return E.inconsistentValue;
          s.applyStatus = apply(tx, s);
          return E.noError;
        case 4: // release
          s.buffer = null;
          s.owner = "";
          return E.noError;
        default: // none, restartTimer: nothing to do without a deadman timer
          return E.noError;
      }
    },
  };

  const rowStatus: WritableColumn = {
    column: parseOid(vtp.vtpVlanEditRowStatus),
    // row creation before the column edits; a destroy after them
    phase: (v) => (rowPhase(v) === 2 ? 1 : rowPhase(v)),
    apply(tx, instance, value, varbind) {
      if (!isInt(value)) return E.wrongType;
      const status = value.value;
      if (status < 1 || status > 6 || status === RowStatus.notReady) return E.wrongValue;
      const id = edit(instance);
      if (id === null) return E.noCreation;
      tx.notes.set(`vtpRow:${id}`, varbind);
      const s = tx.state(state);
      if (!s.buffer) return E.inconsistentValue; // nothing copied into the buffer
      const row = s.buffer.get(id);
      switch (status) {
        case RowStatus.createAndGo:
        case RowStatus.createAndWait:
          if (row) return E.inconsistentValue;
          s.buffer.set(id, {
            state: 1,
            type: 1,
            name: null,
            mtu: 1500,
            said: null,
            rowStatus: status === RowStatus.createAndGo ? RowStatus.active : RowStatus.notReady,
          });
          return E.noError;
        case RowStatus.active:
        case RowStatus.notInService:
          if (!row) return E.inconsistentName;
          row.rowStatus = status;
          return E.noError;
        default:
          s.buffer.delete(id);
          return E.noError;
      }
    },
  };

  const editColumn = (
    object: string,
    check: (v: SnmpValue) => number,
    set: (row: EditRow, v: SnmpValue) => void,
  ): WritableColumn => ({
    column: parseOid(object),
    phase: plain,
    apply(tx, instance, value) {
      const problem = check(value);
      if (problem !== E.noError) return problem;
      const id = edit(instance);
      if (id === null) return E.noCreation;
      const row = tx.state(state).buffer?.get(id);
      if (!row) return E.inconsistentName;
      set(row, value);
      return E.noError;
    },
  });
  const intIn = (lo: number, hi: number) => (v: SnmpValue) =>
    !isInt(v) ? E.wrongType : v.value < lo || v.value > hi ? E.wrongValue : E.noError;
  const text = (v: SnmpValue) =>
    v.tag !== 0x04
      ? E.wrongType
      : v.value.length < 1 || v.value.length > 32
        ? E.wrongLength
        : hasControlChars(v.value)
          ? E.wrongValue
          : E.noError;
  const said = (v: SnmpValue) => (v.tag !== 0x04 ? E.wrongType : v.value.length !== 4 ? E.wrongLength : E.noError);

  return [
    localMode,
    owner,
    editRevision,
    operation,
    rowStatus,
    editColumn(vtp.vtpVlanEditState, intIn(1, 2), (r, v) => (r.state = (v as { value: number }).value)),
    editColumn(vtp.vtpVlanEditType, intIn(1, 6), (r, v) => (r.type = (v as { value: number }).value)),
    editColumn(vtp.vtpVlanEditName, text, (r, v) => (r.name = (v as { value: Buffer }).value.toString("utf8"))),
    editColumn(vtp.vtpVlanEditMtu, intIn(1500, 18190), (r, v) => (r.mtu = (v as { value: number }).value)),
    editColumn(vtp.vtpVlanEditDot10Said, said, (r, v) => (r.said = Buffer.from((v as { value: Buffer }).value))),
  ];
}

/**
 * After the PDU's varbinds: a row made active (createAndGo included) needs a name and a
 * SAID, the MIB's rule for activation; a row created with createAndWait becomes
 * notInService once it has them.
 */
export function finishEditRows(tx: SetTransaction, state: FamilyState<CiscoState>): [number, number] {
  const s = tx.peek(state);
  if (!s.buffer) return [E.noError, 0];
  for (const [id, row] of s.buffer) {
    const complete = row.name !== null && row.said !== null;
    if (row.rowStatus === RowStatus.active && !complete)
      return [E.inconsistentValue, (tx.notes.get(`vtpRow:${id}`) as number | undefined) ?? 1];
    if (row.rowStatus === RowStatus.notReady && complete) row.rowStatus = RowStatus.notInService;
  }
  return [E.noError, 0];
}
