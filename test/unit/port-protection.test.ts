/**
 * OpenL2M's port protections and description guards as pure rules (domain/port-protection.ts)
 * and where interfaceRights() asks them: 802.1X and LAG membership for everyone, the
 * administrator's name, description and speed rules for everyone but superusers, the
 * patterns matched as Python's re.match matches, and the settings' checks at start.
 */
import { interfaceRights, type Policy } from "../../domain/access";
import {
  compilePattern,
  DESCRIPTION_DENIED,
  DOT1X_MODE,
  guardedDescription,
  isHidden,
  lagMemberDenial,
  NAME_DENIED,
  NO_PORT_PROTECTION,
  SPEED_DENIED,
  type PortProtection,
} from "../../domain/port-protection";
import { interfaceJson } from "../../domain/interface-view";
import { loadConfig } from "../../app/config";
import { caller, device, group, iface, staff, superuser } from "./domain-builders";

const protection = (p: Partial<PortProtection>): PortProtection => ({ ...NO_PORT_PROTECTION, ...p });
const policyOf = (p: Partial<PortProtection>): Policy => ({
  always_allow_poe_toggle: false,
  allow_tags_edit: true,
  staff_allow_tags_edit: false,
  protection: protection(p),
});
const allowed = new Set([1, 10, 20]);
const rightsOf = (who: ReturnType<typeof caller>, port: ReturnType<typeof iface>, policy: Policy) =>
  interfaceRights(who, group(), device(), policy, port, allowed, false);

describe("compilePattern: OpenL2M's Python patterns", () => {
  it("matches at the start only, as re.match", () => {
    const p = compilePattern("TenGig")!;
    expect(p.test("TenGigabitEthernet1/1/1")).toBe(true);
    expect(p.test("Port TenGig")).toBe(false);
  });

  it("an alternation is anchored as a whole", () => {
    const p = compilePattern("^Po|NOT ALLOWED")!;
    expect(p.test("Po1 uplink")).toBe(true);
    expect(p.test("NOT ALLOWED here")).toBe(true);
    expect(p.test("this is NOT ALLOWED")).toBe(false);
  });

  it("case-sensitive unless the pattern starts with (?i)", () => {
    expect(compilePattern("blue")!.test("BLUE")).toBe(false);
    expect(compilePattern("(?i)blue")!.test("BLUE")).toBe(true);
  });

  it("empty is no pattern; a broken one or Python-only syntax says what is wrong", () => {
    expect(compilePattern("")).toBeNull();
    expect(() => compilePattern("[")).toThrow(/Unterminated character class/);
    expect(() => compilePattern("(?P<id>D.\\d+)")).toThrow(/named groups/);
    expect(() => compilePattern("(?x)a b")).toThrow(/inline flag \(\?x\)/);
  });
});

describe("interfaceRights with the protections", () => {
  it("an 802.1X port allows nothing, not even to a superuser or with PoE toggling everywhere", () => {
    const port = iface({ dot1x_auth: true });
    for (const who of [superuser(), staff(), caller()]) {
      expect(rightsOf(who, port, { ...policyOf({}), always_allow_poe_toggle: true })).toEqual({
        manageable: false,
        unmanage_reason: DOT1X_MODE,
        allow_poe_toggle: false,
        can_edit_description: false,
      });
    }
  });

  it("a LAG member stays manageable for everyone and says why its VLANs cannot change", () => {
    const port = iface({ lag_member_of: "Port-channel1" });
    for (const who of [superuser(), staff(), caller()]) {
      const r = rightsOf(who, port, policyOf({}));
      expect(r.manageable).toBe(true);
      expect(r.unmanage_reason).toBe("Vlan changes denied: interface is a member of link aggregation Port-channel1!");
    }
    expect(lagMemberDenial(port)).toEqual({
      status: 403,
      code: "access_denied",
      reason: "You can not manage this interface!",
    });
    expect(lagMemberDenial(iface())).toBeNull();
  });

  it.each([
    ["name", { hideNamePattern: compilePattern("TenGig") }, { name: "TenGigabitEthernet1/1/1" }, NAME_DENIED],
    [
      "description",
      { hideDescriptionPattern: compilePattern("BLUE") },
      { description: "BLUE core" },
      DESCRIPTION_DENIED,
    ],
    ["speed", { hideSpeedAboveMbps: 9500 }, { speed: 10000 }, SPEED_DENIED],
  ])(
    "the %s rule: not manageable for staff and users, PoE toggling kept; superusers exempt",
    (_n, p, facts, reason) => {
      const port = iface(facts);
      const policy: Policy = { ...policyOf(p), always_allow_poe_toggle: true };
      for (const who of [staff(), caller()]) {
        expect(rightsOf(who, port, policy)).toEqual({
          manageable: false,
          unmanage_reason: reason,
          allow_poe_toggle: true,
          can_edit_description: false,
        });
      }
      expect(rightsOf(superuser(), port, policy).manageable).toBe(true);
    },
  );

  it("the rules do not catch what they do not match: another name, a slower port, an unknown speed", () => {
    const policy = policyOf({ hideNamePattern: compilePattern("TenGig"), hideSpeedAboveMbps: 9500 });
    expect(rightsOf(caller(), iface({ name: "GigabitEthernet1/0/1", speed: 1000 }), policy).manageable).toBe(true);
    expect(rightsOf(caller(), iface({ speed: 0 }), policy).manageable).toBe(true);
    expect(rightsOf(caller(), iface({ speed: 9500 }), policy).manageable).toBe(true);
  });

  it("the view shows the LAG reason beside manageable: true, and no reason on a plain port", () => {
    const lagPort = iface({ lag_member_of: "Po1" });
    const json = interfaceJson(lagPort, rightsOf(caller(), lagPort, policyOf({})), "basic", true, false);
    expect(json).toMatchObject({ manageable: true, unmanage_reason: expect.stringContaining("Po1") });
    const plain = interfaceJson(iface(), rightsOf(caller(), iface(), policyOf({})), "basic", true, false);
    expect(plain).not.toHaveProperty("unmanage_reason");
  });

  it("HIDE_NONE_ETHERNET_INTERFACES hides what is not Ethernet, LAGs included", () => {
    const on = protection({ hideNonEthernet: true });
    expect(isHidden(iface({ kind: "other" }), on)).toBe(true);
    expect(isHidden(iface({ kind: "lag" }), on)).toBe(true);
    expect(isHidden(iface(), on)).toBe(false);
    expect(isHidden(iface({ kind: "other" }), NO_PORT_PROTECTION)).toBe(false);
  });
});

describe("guardedDescription: OpenL2M's description guards", () => {
  const guards = protection({
    descriptionNotAllowedPattern: compilePattern("^Po|NOT ALLOWED"),
    descriptionKeepBeginningPattern: compilePattern("D.\\d+"),
  });

  it("IFACE_ALIAS_NOT_ALLOW_REGEX refuses a matching text with OpenL2M's words, superusers too", () => {
    for (const su of [false, true])
      expect(guardedDescription("Po1 member", "", su, guards)).toEqual({
        ok: false,
        status: 403,
        code: "access_denied",
        reason: "The description 'Po1 member' is not allowed!",
      });
  });

  it("IFACE_ALIAS_KEEP_BEGINNING_REGEX keeps the circuit id of the old text for non-superusers", () => {
    expect(guardedDescription("printer", "D.123 desk", false, guards)).toEqual({ ok: true, value: "D.123 printer" });
    expect(guardedDescription("", "D.123 desk", false, guards)).toEqual({ ok: true, value: "D.123" });
    expect(guardedDescription("D.123 printer", "D.123 desk", false, guards)).toEqual({
      ok: true,
      value: "D.123 printer",
    });
    expect(guardedDescription("printer", "desk", false, guards)).toEqual({ ok: true, value: "printer" });
  });

  it("another circuit id in place of the kept one is refused; a superuser may change it", () => {
    expect(guardedDescription("D.999 printer", "D.123 desk", false, guards)).toMatchObject({
      ok: false,
      status: 403,
      reason: "The description must keep its beginning 'D.123'!",
    });
    expect(guardedDescription("D.999 printer", "D.123 desk", true, guards)).toEqual({
      ok: true,
      value: "D.999 printer",
    });
    expect(guardedDescription("printer", "D.123 desk", true, guards)).toEqual({ ok: true, value: "printer" });
  });
});

describe("the settings at start (app/config.ts)", () => {
  it("all off by default, LOG_MAX_AGE 180 days as OpenL2M", () => {
    const c = loadConfig({});
    expect(c.portProtection).toEqual(NO_PORT_PROTECTION);
    expect(c.auditRetention.maxAgeDays).toBe(180);
  });

  it("read under OpenL2M's names", () => {
    const c = loadConfig({
      IFACE_HIDE_REGEX_IFNAME: "^TenGig",
      IFACE_HIDE_REGEX_IFDESCR: "BLUE",
      IFACE_HIDE_SPEED_ABOVE: "9500",
      HIDE_NONE_ETHERNET_INTERFACES: "True",
      IFACE_ALIAS_NOT_ALLOW_REGEX: "^Po|NOT ALLOWED",
      IFACE_ALIAS_KEEP_BEGINNING_REGEX: "D.\\d+",
      LOG_MAX_AGE: "30",
    });
    expect(c.portProtection.hideNamePattern?.test("TenGigabitEthernet1/1/1")).toBe(true);
    expect(c.portProtection.hideDescriptionPattern?.test("BLUE")).toBe(true);
    expect(c.portProtection.hideSpeedAboveMbps).toBe(9500);
    expect(c.portProtection.hideNonEthernet).toBe(true);
    expect(c.portProtection.descriptionNotAllowedPattern?.test("Po1")).toBe(true);
    expect(c.portProtection.descriptionKeepBeginningPattern?.test("D.1")).toBe(true);
    expect(c.auditRetention.maxAgeDays).toBe(30);
  });

  it.each([
    [
      { IFACE_HIDE_REGEX_IFNAME: "(" },
      /^IFACE_HIDE_REGEX_IFNAME is not a regular expression switchdesk can use: .*\(got "\("\)$/,
    ],
    [{ IFACE_ALIAS_KEEP_BEGINNING_REGEX: "D.[0-" }, /^IFACE_ALIAS_KEEP_BEGINNING_REGEX is not a regular expression/],
    [
      { IFACE_HIDE_SPEED_ABOVE: "10G" },
      /^IFACE_HIDE_SPEED_ABOVE must be a whole number of Mbps, 0 for off \(got "10G"\)$/,
    ],
    [{ HIDE_NONE_ETHERNET_INTERFACES: "sometimes" }, /^HIDE_NONE_ETHERNET_INTERFACES must be on or off/],
    [{ LOG_MAX_AGE: "-1" }, /^LOG_MAX_AGE must be a whole number of days/],
  ])("a bad value stops the start with one line naming the setting: %p", (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
