/**
 * db/inventory.ts vlanListOf: a group's VLANs as pair() reads them in one column
 * (group_concat). The list is taken only when it is whole: a server whose
 * group_concat_max_len cut it short must make pair() read the VLANs on their own, never
 * act on part of the list (a cut number could name another VLAN).
 */
import { vlanListOf } from "../../db/inventory";

describe("vlanListOf", () => {
  it("reads the list, ascending, from text or bytes", () => {
    expect(vlanListOf("1000,20,5", 1025)).toEqual([5, 20, 1000]);
    expect(vlanListOf(Buffer.from("7,3"), "10")).toEqual([3, 7]);
    expect(vlanListOf(null, null)).toEqual([]);
  });

  it("refuses a list cut short: a VLAN dropped, a number cut, a trailing comma", () => {
    // the whole list 1000,20,100 (sum 1120) cut at 4, 9 and 8 characters
    expect(vlanListOf("1000", 1120)).toBeNull();
    expect(vlanListOf("1000,20,1", 1120)).toBeNull();
    expect(vlanListOf("1000,20,", 1120)).toBeNull();
    expect(vlanListOf(null, 5)).toBeNull();
  });
});
