/**
 * Broadcom FASTPATH derivatives: Ubiquiti UniFi / EdgeSwitch (enterprise 4413, Broadcom's
 * number, sysObjectID is just 1.3.6.1.4.1.4413) and Netgear (4526.10). VLANs, PVIDs and
 * memberships come from Q-BRIDGE; the running configuration is saved with a scalar.
 * FS.com (52642) and D-Link DGS (171) recordings hold nothing beyond standard MIBs and
 * health tables, so no vendor objects are listed for them.
 *
 * Sources: EdgeSwitch-SWITCHING-MIB, FASTPATH-SWITCHING-MIB (OIDs and enums as defined).
 */

/** Ubiquiti's own enterprise; EdgeSwitch firmware may answer with it instead of 4413. */
export const ubiquitiEnterprise = "1.3.6.1.4.1.41112";
/** Broadcom's enterprise, the bare sysObjectID of UniFi and EdgeSwitch FASTPATH agents. */
export const broadcomEnterprise = "1.3.6.1.4.1.4413";

/** FS.com's enterprise (S3900 series: 52642.2.1.45.101). */
export const fsEnterprise = "1.3.6.1.4.1.52642";

/** EdgeSwitch-SWITCHING-MIB scalars (instance .0), in agentSystemGroup. */
export const edgeSwitch = {
  agentSaveConfig: "1.3.6.1.4.1.4413.1.1.1.3.1", // write 1 enable to save; 2 disable
  agentSaveConfigStatus: "1.3.6.1.4.1.4413.1.1.1.3.11", // 1 notInitiated, 2 savingInProcess, 3 savingComplete, 4 savingFailed
} as const;

/** agentSaveConfigStatus values (the same in EdgeSwitch and FASTPATH switching MIBs). */
export const saveConfigStatus = { notInitiated: 1, savingInProcess: 2, savingComplete: 3, savingFailed: 4 } as const;

/** FASTPATH-SWITCHING-MIB (Netgear) scalars (instance .0). */
export const netgearFastpath = {
  agentSaveConfig: "1.3.6.1.4.1.4526.10.1.3.1", // write 1 enable to save; 2 disable
  agentSaveConfigStatus: "1.3.6.1.4.1.4526.10.1.3.11", // 1 notInitiated, 2 savingInProcess, 3 savingComplete, 4 savingFailed
} as const;
