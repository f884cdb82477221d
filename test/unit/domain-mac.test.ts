import { formatMac, macVendor, parseMac } from "../../domain/mac";

describe("MAC addresses", () => {
  it("every spelling becomes lower-case colon form", () => {
    for (const text of ["00:1C:73:0a:0b:0c", "00-1c-73-0a-0b-0c", "001c.730a.0b0c", "001C730A0B0C"]) {
      expect(formatMac(text)).toBe("00:1c:73:0a:0b:0c");
    }
  });

  it("text that is no MAC stays as it was and has no vendor", () => {
    expect(parseMac("00:1c:73")).toBeNull();
    expect(formatMac("not-a-mac")).toBe("not-a-mac");
    expect(macVendor("zz:zz:zz:zz:zz:zz")).toBe("");
  });

  it("the group bit means MultiCast, before any vendor", () => {
    expect(macVendor("01:00:5e:7f:00:01")).toBe("MultiCast");
    expect(macVendor("ff:ff:ff:ff:ff:ff")).toBe("MultiCast");
    expect(macVendor("01:00:0c:cc:cc:cc")).toBe("MultiCast"); // Cisco CDP, still a group address
  });

  it("the local bit means Locally Administered", () => {
    expect(macVendor("02:00:00:00:00:01")).toBe("Locally Administered");
    expect(macVendor("52:54:00:ab:cd:ef")).toBe("Locally Administered");
  });

  it("known makers by OUI, unknown ones empty", () => {
    expect(macVendor("00:00:0c:12:34:56")).toBe("Cisco Systems");
    expect(macVendor("B8-27-EB-01-02-03")).toBe("Raspberry Pi Foundation");
    expect(macVendor("00:11:22:33:44:55")).toBe("");
  });
});
