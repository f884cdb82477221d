/**
 * The lab: simulated switches that speak real SNMP on 127.0.0.1, for tests, the bench
 * and the demo. This file is the public API; the parts live beside it (model, profiles,
 * generation) and under snmp/ (codec, USM, index, agent).
 */
export type { VirtualSwitch } from "./model";
export type { ProfileId } from "./profiles";
export type { ErrorStatusName } from "./snmp/error-status";
export type { QBridgeMode } from "./snmp/switch-mib/writable";
export type { VendorOptions, VtpMode } from "./snmp/switch-mib/family";
export { profileIds } from "./profiles";
export type { LabV3User, LabSwitchOptions, LabFaults, LabCounters, LabSwitch } from "./types";

export { startLabSwitch, startDemoLab, demoLabOptions } from "./lab-switch";
export { startRecordingAgent, writeRecording } from "./recording";
export type { RecordingAgent, RecordingAgentOptions } from "./recording";
export type { OversizeMode } from "./snmp/faults";

// the SSH face: the IOS command line over the same model (lab/ssh/)
export { startLabSshFace } from "./ssh/server";
export type { LabSshFace, LabSshFaceOptions, LabSshFaults } from "./ssh/server";
export { iosInterfaceName } from "./ssh/ios-names";

// the AOS-CX REST face: HTTPS, sessions with a per-user limit, over the same model (lab/aoscx/)
export { startLabAoscxFace, AOSCX_VERSIONS } from "./aoscx/server";
export type { LabAoscxFace, LabAoscxFaceOptions, LabAoscxFaults, LabAoscxCounters } from "./aoscx/server";
// the eAPI face: Arista's JSON-RPC over HTTPS over the same model (lab/eapi/)
export { startLabEapiFace } from "./eapi/server";
export type { LabEapiFace, LabEapiFaceOptions, LabEapiFaults, LabEapiCounters } from "./eapi/server";
// the NETCONF face: Junos NETCONF over the lab's SSH server, on the same model (lab/netconf/)
export { startLabNetconfFace } from "./netconf/face";
export type { LabNetconfFace, LabNetconfFaceOptions, LabNetconfFaults } from "./netconf/face";
