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
  /** 0 SNMP, 1 Aruba AOS-CX REST, 2 Junos NETCONF, 3 Arista eAPI, 7 SSH command line */
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

export const DEFAULT_VIEW_NAMES = { 0: "Basic", 1: "Details" } as const;
export type DefaultView = keyof typeof DEFAULT_VIEW_NAMES;

/**
 * OpenL2M's numbers and names: 0 SNMP, 1 Aruba AOS-CX, 3 Arista eAPI; 2 is OpenL2M's Junos
 * connector (it says "Junos (PyEZ)"; switchdesk speaks NETCONF itself); 7 is ours, the SSH
 * command line.
 */
export const CONNECTOR_TYPE_NAMES = {
  0: "SNMP",
  1: "Aruba AOS-CX",
  2: "Junos NETCONF",
  3: "Arista eAPI",
  7: "SSH command line",
} as const;
export type ConnectorType = keyof typeof CONNECTOR_TYPE_NAMES;

/** The stored number as one of the known views (anything else shows as Basic). */
export function defaultView(view: number): DefaultView {
  return view === 1 ? 1 : 0;
}

export function defaultViewName(view: number): (typeof DEFAULT_VIEW_NAMES)[DefaultView] {
  return DEFAULT_VIEW_NAMES[defaultView(view)];
}

/** one of the connector numbers switchdesk knows (whether or not a driver speaks over it yet) */
export function isConnectorType(type: number): type is ConnectorType {
  return Object.prototype.hasOwnProperty.call(CONNECTOR_TYPE_NAMES, type);
}

/** The stored number as one of the known connectors (the admin API stores no other). */
export function connectorType(type: number): ConnectorType {
  return isConnectorType(type) ? type : 0;
}

export function connectorTypeName(type: number): (typeof CONNECTOR_TYPE_NAMES)[ConnectorType] {
  return CONNECTOR_TYPE_NAMES[connectorType(type)];
}

/** "connector 1 (Aruba AOS-CX)", for messages */
export function connectorWords(connector: number): string {
  return isConnectorType(connector)
    ? `connector ${connector} (${CONNECTOR_TYPE_NAMES[connector]})`
    : `connector ${connector}`;
}
