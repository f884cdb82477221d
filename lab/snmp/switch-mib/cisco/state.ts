/**
 * What a Cisco IOS switch keeps besides its configuration: the VTP domain (mode,
 * revision), the VLAN edit buffer, the config-copy rows and the serial number of trunk
 * VLAN list writes. Staged per SET PDU like the configuration.
 */
import { FamilyState } from "../family-state";
import type { VtpMode } from "../family";

/** One VLAN row of the VTP edit buffer (vtpVlanEditTable). */
export interface EditRow {
  /** vtpVlanEditState: 1 operational, 2 suspended */
  state: number;
  /** VlanType: 1 ethernet, 2 fddi, 3 tokenRing, 4 fddiNet, 5 trNet */
  type: number;
  /** null until the manager sets it on a created row */
  name: string | null;
  mtu: number;
  /** 4 octets; null until set on a created row */
  said: Buffer | null;
  /** RowStatus: 1 active, 2 notInService, 3 notReady */
  rowStatus: number;
}

/** One row of ccCopyTable. */
export interface CopyJob {
  protocol: number;
  source: number | null;
  dest: number | null;
  server: string | null;
  fileName: string;
  /** 1 active, 2 notInService, 3 notReady */
  rowStatus: number;
  /** ccCopyState: 1 waiting, 2 running, 3 successful, 4 failed */
  state: number;
  /** ccCopyFailCause, 0 while there is none */
  failCause: number;
  startedTicks: number;
  completedTicks: number;
  /** bumped on every activation, so a timer of an earlier run leaves the row alone */
  run: number;
}

export interface CiscoState {
  vtpMode: VtpMode;
  /** managementDomainConfigRevNumber */
  revision: number;
  /** the edit buffer, null while empty */
  buffer: Map<number, EditRow> | null;
  /** vtpVlanEditBufferOwner */
  owner: string;
  /** vtpVlanEditConfigRevNumber */
  editRevision: number;
  /** vtpVlanApplyStatus: 2 succeeded also before any apply */
  applyStatus: number;
  /** vlanTrunkPortSetSerialNo (TestAndIncr) */
  trunkSerial: number;
  copies: Map<number, CopyJob>;
}

export const VTP_MODE_VALUE: Record<VtpMode, number> = { client: 1, server: 2, transparent: 3, off: 4 };
export const VTP_MODE_OF: Record<number, VtpMode> = { 1: "client", 2: "server", 3: "transparent", 4: "off" };

export function ciscoState(vtpMode: VtpMode): FamilyState<CiscoState> {
  const initial: CiscoState = {
    vtpMode,
    revision: vtpMode === "server" || vtpMode === "client" ? 7 : 0,
    buffer: null,
    owner: "",
    editRevision: 0,
    applyStatus: 2,
    trunkSerial: 0,
    copies: new Map(),
  };
  const copy = (s: CiscoState): CiscoState => ({
    ...s,
    buffer: s.buffer ? new Map([...s.buffer].map(([k, r]) => [k, { ...r }])) : null,
    copies: new Map([...s.copies].map(([k, r]) => [k, { ...r }])),
  });
  const rowsKey = (s: CiscoState) =>
    `${s.buffer ? [...s.buffer.keys()].join(",") : "-"}|${[...s.copies.keys()].join(",")}`;
  return new FamilyState(initial, copy, rowsKey);
}
