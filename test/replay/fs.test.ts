/**
 * FS.com S3900-24T4S as recorded: sysObjectID under FS's enterprise 52642, Q-BRIDGE with
 * three VLANs (current bitmaps longer than the port count, with trailing bytes past the
 * ports), PVIDs by bridge port, VLAN interfaces at 1000 + VLAN, LLDP neighbours.
 */
import { replayQBridgeFamily } from "./qbridge-family";

replayQBridgeFamily("replay: FS.com", "fs-switch_s3900", "fs");
