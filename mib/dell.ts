/**
 * Dell switch objects. Three unrelated families carry the Dell name:
 *  - Dell Networking OS9 / Force10 FTOS (enterprise 6027; the "dnos" recording, an
 *    S4048-ON): Q-BRIDGE for VLANs, saved through FORCE10-COPY-CONFIG-MIB;
 *  - Dell EMC OS10 (674.11000.5000): Q-BRIDGE names and current bitmaps, no save object
 *    known from a MIB read here;
 *  - Dell N-series DNOS6 (674.10895): FASTPATH-derived; its save scalar (agentSaveConfig in
 *    a Dell switching MIB) was not found in any MIB available here, so it is left out.
 *
 * Sources: FORCE10-COPY-CONFIG-MIB (OIDs, enums and INDEX clauses as defined there).
 */

/**
 * FORCE10-COPY-CONFIG-MIB copyConfigTable, index copyConfigIndex (manager-chosen row).
 * Save = source runningConfig(2), destination startupConfig(3), row createAndGo(4).
 */
export const f10CopyConfig = {
  copySrcFileType: "1.3.6.1.4.1.6027.3.5.1.1.1.1.2", // 1 ftosFile, 2 runningConfig, 3 startupConfig
  copyDestFileType: "1.3.6.1.4.1.6027.3.5.1.1.1.1.5", // 1 ftosFile, 2 runningConfig, 3 startupConfig
  copyState: "1.3.6.1.4.1.6027.3.5.1.1.1.1.11", // 1 running, 2 successful, 3 failed
  copyFailCause: "1.3.6.1.4.1.6027.3.5.1.1.1.1.14", // 1 badFileName, 2 copyInProgress, 3 diskFull, 4 fileExist, 5 fileNotFound, 6 timeout, 7 unknown
  copyEntryRowStatus: "1.3.6.1.4.1.6027.3.5.1.1.1.1.15", // RowStatus 1 active, 4 createAndGo, 6 destroy
} as const;

/** LLDP-MIB lldpLocPortTable columns beside lldpLocPortId (mib/oids.ts), index lldpLocPortNum. */
export const lldpLocPort = {
  lldpLocPortDesc: "1.0.8802.1.1.2.1.3.7.1.4",
} as const;
