/**
 * The stored records the views show, as the repositories hand them over. Only the
 * fields the views read; a database row with more fields fits too.
 */

export interface DeviceRecord {
  id: number;
  name: string;
  hostname: string;
  description: string;
  comments: string;
  nms_id: string | null;
  primary_ipv4: string | null;
  primary_ipv6: string | null;
  read_only: boolean;
  /** 0 basic, 1 details */
  default_view: number;
  /** 0 SNMP, 7 SSH command line */
  connector_type: number;
  /** what the driver last learned, as stored: a JSON text (may be "") */
  driver_info: string;
}

export interface GroupRecord {
  id: number;
  name: string;
  description: string;
  display_name: string;
  comments: string;
  read_only: boolean;
}

export const DEFAULT_VIEW_NAMES: Readonly<Record<number, string>> = { 0: "Basic", 1: "Details" };

export const CONNECTOR_TYPE_NAMES: Readonly<Record<number, string>> = { 0: "SNMP", 7: "SSH command line" };

export function defaultViewName(view: number): string {
  return DEFAULT_VIEW_NAMES[view] ?? "Unknown";
}

export function connectorTypeName(type: number): string {
  return CONNECTOR_TYPE_NAMES[type] ?? "Unknown";
}
