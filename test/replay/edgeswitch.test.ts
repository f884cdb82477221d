/**
 * Ubiquiti UniFi US-8 as recorded: the bare Broadcom enterprise 1.3.6.1.4.1.4413 as
 * sysObjectID, so "auto" picks the edgeswitch family by its sysDescr ("US-8, ...").
 * The recording holds Q-BRIDGE static names, current memberships and PVIDs by bridge
 * port, LLDP with one neighbour, no PoE table, and `<private>` system strings.
 */
import { replayQBridgeFamily } from "./qbridge-family";

replayQBridgeFamily("replay: Ubiquiti UniFi / EdgeSwitch", "edgeswitch_us-8-v2", "edgeswitch");
