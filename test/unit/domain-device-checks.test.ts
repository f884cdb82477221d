import {
  checkCapability,
  checkPoeSupported,
  checkSameDescription,
  checkSamePoeState,
  checkSameState,
  checkSameVlan,
  checkVlanAbsent,
  checkVlanPresent,
  checkVlanTarget,
} from "../../domain/device-checks";
import { capabilities, iface, vlan } from "./domain-builders";

const onDevice = [vlan(1), vlan(10), vlan(20), vlan(4094)];

describe("a new untagged VLAN", () => {
  const reason = (v: number) => ({
    ok: false,
    status: 400,
    code: "invalid_parameter",
    reason: `New vlan ${v} is not valid or allowed on this device`,
  });

  it("must be allowed and on the device", () => {
    expect(checkVlanTarget(20, onDevice, new Set([10, 20]))).toBeNull();
    expect(checkVlanTarget(1, onDevice, new Set([10, 20]))).toEqual(reason(1));
    expect(checkVlanTarget(30, onDevice, new Set([10, 20, 30]))).toEqual(reason(30));
  });

  it("0 and 4095 are never valid, whatever a list says", () => {
    expect(checkVlanTarget(0, [...onDevice, vlan(0)], new Set([0]))).toEqual(reason(0));
    expect(checkVlanTarget(4095, [...onDevice, vlan(4095)], new Set([4095]))).toEqual(reason(4095));
    expect(checkVlanTarget(4094, onDevice, new Set([4094]))).toBeNull();
  });
});

describe("same as current: 404 same_value with the requested word", () => {
  it("state", () => {
    expect(checkSameState(true, true)).toEqual({
      ok: false,
      status: 404,
      code: "same_value",
      reason: "New interface status is the same (Enabled), please change status!",
    });
    expect(checkSameState(false, false)?.reason).toBe(
      "New interface status is the same (Disabled), please change status!",
    );
    expect(checkSameState(true, false)).toBeNull();
  });

  it("PoE", () => {
    expect(checkSamePoeState(false, false)?.reason).toBe(
      "New PoE status is the same (Disabled), please change status!",
    );
    expect(checkSamePoeState(true, false)).toBeNull();
  });

  it("vlan", () => {
    expect(checkSameVlan(500, 500)).toMatchObject({
      status: 404,
      reason: "New vlan 500 is the same, please change the vlan first!",
    });
    expect(checkSameVlan(500, 501)).toBeNull();
  });

  it("description", () => {
    expect(checkSameDescription("uplink", "uplink")).toMatchObject({
      status: 404,
      reason: "New description is the same, please change it first!",
    });
    expect(checkSameDescription("", "uplink")).toBeNull();
  });
});

describe("device facts", () => {
  it("PoE on a port without PoE: 400 with the interface name", () => {
    expect(checkPoeSupported(iface({ name: "Gi1/0/3" }))).toEqual({
      ok: false,
      status: 400,
      code: "not_supported",
      reason: "Interface Gi1/0/3 does not support PoE",
    });
  });

  it("VLAN add of an existing id, edit/delete of a missing one", () => {
    expect(checkVlanAbsent(onDevice, 10)).toEqual({
      ok: false,
      status: 400,
      code: "already_exists",
      reason: "Vlan 10 already exists!",
    });
    expect(checkVlanAbsent(onDevice, 777)).toBeNull();
    expect(checkVlanPresent(onDevice, 777)).toEqual({
      ok: false,
      status: 404,
      code: "not_found",
      reason: "Vlan 777 does not exist!",
    });
    expect(checkVlanPresent(onDevice, 10)).toBeNull();
  });

  it("a device that needs no save gets the contract's text", () => {
    expect(checkCapability(capabilities({ save_config: false }), "save_config")).toEqual({
      ok: false,
      status: 400,
      code: "not_supported",
      reason: "This switch model cannot save or does not need to save the config",
    });
    expect(checkCapability(capabilities({ save_config: true }), "save_config")).toBeNull();
  });

  it("a driver without VLAN editing: 400 not_supported", () => {
    expect(checkCapability(capabilities({ edit_vlans: false }), "edit_vlans")).toEqual({
      ok: false,
      status: 400,
      code: "not_supported",
      reason: "This switch model cannot add or delete vlans",
    });
    expect(checkCapability(capabilities(), "edit_vlans")).toBeNull();
  });
});
