/**
 * The driver contract. Every driver (SNMP families, SSH command lines) implements it and
 * returns the shapes of model/, so handlers, services and the domain never look at a
 * protocol. Modelled on NAPALM's NetworkDriver: the shapes are written down once, and one
 * conformance suite checks every driver (docs/architecture.md shows an example return of
 * every getter).
 *
 * A write reads the device once: learnInterface() gives the view the checks look at,
 * and the setter gets that same view back.
 *
 * A port batch (app/port-batch.ts) reads the device once before and once after its
 * writes: learnInterfaces() gives every view in one pass; with verifyWrites("deferred")
 * the setters send their writes without reading each back, and the batch compares what
 * it meant with one more learnInterfaces() at its end.
 */
import type { Capabilities } from "../model/capabilities";
import type { DeviceSnapshot, InterfaceView, LearnScope, TagChange, VlanInfo } from "../model/device";

export interface Driver {
  readonly info: { vendor: string; driver: string };
  readonly can: Capabilities;
  /**
   * The driver's own interface id from its URL form, or null when the text cannot name an
   * interface of this driver (the API answers 404 then). SNMP drivers take the ifIndex in
   * its one canonical spelling; command-line drivers the name, with "_" for "/".
   */
  parseInterfaceId(urlId: string): string | null;
  learn(scope: LearnScope): Promise<DeviceSnapshot>;
  /** learn only what a write to one interface needs; null when it does not exist */
  learnInterface(id: string): Promise<InterfaceView | null>;
  /**
   * learnInterface() of many interfaces in one pass (by id; null where there is none): the
   * views are those learnInterface() gives, and the setters take them alike. Views of one
   * call may share device-wide state (the SNMP engine's Q-BRIDGE VLAN bitmaps); see
   * viewsFollowWrites.
   */
  learnInterfaces(ids: string[]): Promise<Map<string, InterfaceView | null>>;
  /**
   * true when a setter keeps the views of one learnInterfaces() current: after a write to
   * one port, a write to the same or another port through its view builds on it (no new
   * learn needed). Absent or false: a batch learns a port again before a VLAN change of a
   * port whose VLANs it already changed, or after another VLAN change.
   */
  readonly viewsFollowWrites?: boolean;
  /**
   * The read-back of the setters: "each" (the default, every single write) reads each
   * write back and throws DeviceMismatch when the device shows otherwise; "deferred" (a
   * batch) sends the writes and leaves the comparison to the caller's one read at the end.
   * A driver without it reads every write back whatever the batch does.
   */
  verifyWrites?(mode: "each" | "deferred"): void;
  /** the VLAN list alone (for VLAN add/edit/delete checks) */
  learnVlans(): Promise<VlanInfo[]>;
  setAdminState(view: InterfaceView, up: boolean): Promise<void>;
  setUntaggedVlan(view: InterfaceView, vlan: number): Promise<void>;
  /**
   * Makes the port a trunk carrying `tagged` (every VLAN when allowAll) with `untagged`
   * as its native VLAN; an access port on `untagged` when tagged is empty and allowAll
   * false. Resolves when the device reads back that way.
   */
  setTags(view: InterfaceView, change: TagChange): Promise<void>;
  setPoe(view: InterfaceView, on: boolean): Promise<void>;
  setDescription(view: InterfaceView, text: string): Promise<void>;
  createVlan(id: number, name: string): Promise<void>;
  renameVlan(id: number, name: string): Promise<void>;
  deleteVlan(id: number): Promise<void>;
  saveConfig(): Promise<void>;
  close(): Promise<void>;
}
