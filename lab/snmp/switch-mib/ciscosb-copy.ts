/** Read side of CISCOSB-COPY-MIB rlCopyTable: the rows of copies the manager started. */
import { ciscoSbCopy } from "../../../mib/oids";
import type { VirtualSwitch } from "../../model";
import type { MibIndexBuilder } from "../mib-index";
import { integer, noSuchInstance } from "../values";

export function addCiscoSbCopy(b: MibIndexBuilder, sw: VirtualSwitch): void {
  const rows = [...sw.copyRows.keys()];
  const byRow = (r: number) => [r];
  const col = (object: string, pick: (r: NonNullable<ReturnType<typeof sw.copyRows.get>>) => number) =>
    b.column(object, rows, byRow, (r) => {
      const row = sw.copyRows.get(r);
      return row ? integer(pick(row)) : noSuchInstance;
    });
  col(ciscoSbCopy.rlCopySourceLocation, (r) => r.sourceLocation);
  col(ciscoSbCopy.rlCopySourceFileType, (r) => r.sourceFileType);
  col(ciscoSbCopy.rlCopyDestinationLocation, (r) => r.destinationLocation);
  col(ciscoSbCopy.rlCopyDestinationFileType, (r) => r.destinationFileType);
  col(ciscoSbCopy.rlCopyOperationState, (r) => r.operationState);
  col(ciscoSbCopy.rlCopyRowStatus, (r) => r.rowStatus);
}
