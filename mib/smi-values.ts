/**
 * SNMP values as the agent holds them: the BER tag says the SMI type. Exceptions
 * (noSuchObject, noSuchInstance, endOfMibView) are values too, as in SNMPv2 PDUs.
 */

export const Tag = {
  Integer: 0x02,
  OctetString: 0x04,
  Null: 0x05,
  ObjectIdentifier: 0x06,
  Sequence: 0x30,
  IpAddress: 0x40,
  Counter32: 0x41,
  Gauge32: 0x42,
  TimeTicks: 0x43,
  Opaque: 0x44,
  Counter64: 0x46,
  NoSuchObject: 0x80,
  NoSuchInstance: 0x81,
  EndOfMibView: 0x82,
} as const;

export type SnmpValue =
  | { tag: 0x02; value: number }
  | { tag: 0x04; value: Buffer }
  | { tag: 0x05 }
  | { tag: 0x06; value: readonly number[] }
  | { tag: 0x40; value: Buffer }
  | { tag: 0x41 | 0x42 | 0x43; value: number }
  | { tag: 0x44; value: Buffer }
  | { tag: 0x46; value: bigint }
  | { tag: 0x80 | 0x81 | 0x82 };

export const integer = (value: number): SnmpValue => ({ tag: Tag.Integer, value });
export const gauge = (value: number): SnmpValue => ({ tag: Tag.Gauge32, value });
export const counter32 = (value: number): SnmpValue => ({ tag: Tag.Counter32, value });
export const counter64 = (value: bigint): SnmpValue => ({ tag: Tag.Counter64, value });
export const timeTicks = (value: number): SnmpValue => ({ tag: Tag.TimeTicks, value });
export const octets = (value: Buffer | string): SnmpValue => ({
  tag: Tag.OctetString,
  value: typeof value === "string" ? Buffer.from(value, "utf8") : value,
});
export const objectId = (value: readonly number[]): SnmpValue => ({ tag: Tag.ObjectIdentifier, value });
export const ipAddress = (dotted: string): SnmpValue => ({
  tag: Tag.IpAddress,
  value: Buffer.from(dotted.split(".").map(Number)),
});
export const noSuchObject: SnmpValue = { tag: Tag.NoSuchObject };
export const noSuchInstance: SnmpValue = { tag: Tag.NoSuchInstance };
export const endOfMibView: SnmpValue = { tag: Tag.EndOfMibView };

export interface VarBind {
  oid: number[];
  value: SnmpValue;
}
