/**
 * The helpdesk writes' pure rules (domain/port-batch.ts): a batch body's shape and
 * limits, the wait's bounds, and where a bounce or PoE power cycle is refused (aggregation
 * members for everyone; the administrator's protected ports, uplinks, for a power cycle
 * by anyone but a superuser, even with the PoE flags).
 */
import { interfaceRights, type Policy } from "../../domain/access";
import {
  canBounce,
  canCyclePoe,
  checkBounceable,
  checkCyclable,
  MAX_BATCH_ITEMS,
  parseBatch,
  parseCycle,
  parseWait,
  WAIT_DEFAULT_S,
} from "../../domain/port-batch";
import { NO_PORT_PROTECTION, type PortProtection } from "../../domain/port-protection";
import { caller, device, group, iface, superuser } from "./domain-builders";

const UPLINKS: PortProtection = { ...NO_PORT_PROTECTION, hideSpeedAboveMbps: 9500 };
const policy: Policy = {
  always_allow_poe_toggle: false,
  allow_tags_edit: true,
  staff_allow_tags_edit: false,
  protection: UPLINKS,
};
const allowed = new Set([10, 20]);
const poe = {
  admin_status: "Enabled" as const,
  detect_status: "Delivering" as const,
  power_consumption_supported: false,
  power_consumed: 0,
  power_available: 0,
  max_power_consumed: 0,
};

describe("parseWait", () => {
  it("defaults when absent, takes 0..60 s to the millisecond, refuses the rest", () => {
    expect(parseWait(undefined)).toEqual({ ok: true, value: WAIT_DEFAULT_S });
    expect(parseWait("0.25")).toEqual({ ok: true, value: 0.25 });
    expect(parseWait(60)).toEqual({ ok: true, value: 60 });
    for (const bad of [61, -1, "abc", "1e9", [], {}]) expect(parseWait(bad)).toMatchObject({ ok: false, status: 400 });
  });
});

describe("parseBatch", () => {
  it("reads items, dry_run, on_failure and save; items may be JSON text (a form)", () => {
    const r = parseBatch({ items: '[{"interface": "5", "vlan": "20", "bounce": "yes", "wait": 1}]', dry_run: "yes" });
    expect(r).toEqual({
      ok: true,
      value: {
        items: [{ interface: "5", kind: "vlan", body: { vlan: "20" }, wait: 1, bounceAfter: true }],
        dryRun: true,
        onFailure: "stop",
        save: false,
      },
    });
  });

  it("refuses a body that is not a batch, naming the item", () => {
    const reason = (body: Record<string, unknown>) => {
      const r = parseBatch(body);
      return r.ok ? "" : r.reason;
    };
    expect(reason({ items: [] })).toContain("'items'");
    expect(reason({ items: "not json" })).toContain("'items'");
    expect(
      reason({ items: Array.from({ length: MAX_BATCH_ITEMS + 1 }, () => ({ interface: "1", state: "on" })) }),
    ).toBe(`Too many items in one batch: ${MAX_BATCH_ITEMS + 1} (at most ${MAX_BATCH_ITEMS})`);
    expect(reason({ items: [{ interface: "1", state: "on" }, "x"] })).toContain("Batch item 2");
    expect(reason({ items: [{ state: "on" }] })).toBe("Batch item 1: 'interface' is missing");
    expect(reason({ items: [{ interface: "1", color: "red" }] })).toBe("Batch item 1: unknown field 'color'");
    expect(reason({ items: [{ interface: "1" }] })).toContain("give exactly one change");
    expect(reason({ items: [{ interface: "1", state: "on", wait: 2 }] })).toContain("'wait' belongs to");
    expect(reason({ items: [{ interface: "1", bounce: "no" }] })).toContain("'bounce' must be an on-value");
  });

  it("a lone bounce with a vlan is the VLAN change with a bounce after it", () => {
    expect(parseCycle("bounce", { vlan: 20, wait: "2" })).toEqual({
      ok: true,
      value: { interface: "", kind: "vlan", body: { vlan: 20 }, wait: 2, bounceAfter: true },
    });
    expect(parseCycle("poe_cycle", { vlan: 20 })).toMatchObject({ ok: true, value: { kind: "poe_cycle" } });
  });
});

describe("where a bounce and a power cycle are refused", () => {
  const rights = (who: ReturnType<typeof caller>, port: ReturnType<typeof iface>) =>
    interfaceRights(who, group({ allow_poe_toggle: true }), device(), policy, port, allowed, false);
  const helper = caller();
  const access = iface({ poe });
  const uplink = iface({ speed: 10000, poe });
  const member = iface({ lag_member_of: "Port-channel1", poe });

  it("a bounce: a manageable port that is no aggregation member, enabled", () => {
    expect(canBounce(rights(helper, access), access)).toBeNull();
    expect(canBounce(rights(helper, uplink), uplink)).toMatchObject({ status: 403 });
    expect(canBounce(rights(superuser(), uplink), uplink)).toBeNull();
    expect(canBounce(rights(superuser(), member), member)).toMatchObject({ status: 403 });
    expect(checkBounceable(iface({ admin_up: false }))).toMatchObject({ status: 400 });
  });

  it("a power cycle: the PoE rights, but never an uplink for a non-superuser nor an aggregation member", () => {
    // the group's PoE flag allows a PoE write on the uplink; not its power cycle
    expect(rights(helper, uplink).allow_poe_toggle).toBe(true);
    expect(canCyclePoe(rights(helper, uplink), uplink, false, UPLINKS)).toMatchObject({ status: 403 });
    expect(canCyclePoe(rights(superuser(), uplink), uplink, true, UPLINKS)).toBeNull();
    expect(canCyclePoe(rights(helper, access), access, false, UPLINKS)).toBeNull();
    expect(canCyclePoe(rights(superuser(), member), member, true, UPLINKS)).toMatchObject({ status: 403 });
    expect(checkCyclable(iface())).toMatchObject({ status: 400 });
    expect(checkCyclable(iface({ poe: { ...poe, admin_status: "Disabled" } }))).toMatchObject({ status: 400 });
  });
});
