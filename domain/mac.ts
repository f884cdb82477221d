/**
 * Ethernet addresses in the details view: one spelling (00:11:22:33:44:55, lower case)
 * whatever the driver read, and a vendor name. The two flag bits of the first octet
 * say more than any vendor table: bit 0 set = a group (multicast) address, bit 1 set =
 * locally administered (virtual machines, randomised phones). Otherwise a small
 * built-in table of common OUIs names the maker; unknown makers give "".
 */

const HEX_DIGITS = /^[0-9a-f]{12}$/;

/** The six octets of a MAC in colon, hyphen, dotted (Cisco) or bare hex form; null if not one. */
export function parseMac(text: string): number[] | null {
  const compact = text
    .trim()
    .toLowerCase()
    .replace(/[:.\-\s]/g, "");
  if (!HEX_DIGITS.test(compact)) return null;
  const octets: number[] = [];
  for (let i = 0; i < 12; i += 2) octets.push(parseInt(compact.slice(i, i + 2), 16));
  return octets;
}

/** 00:11:22:33:44:55; text that is no MAC is returned unchanged. */
export function formatMac(text: string): string {
  const octets = parseMac(text);
  return octets ? octets.map((octet) => octet.toString(16).padStart(2, "0")).join(":") : text;
}

/** First three octets as "00:00:0c" -> maker, from the IEEE registry. */
const OUI_VENDORS: Readonly<Record<string, string>> = {
  "00:00:0c": "Cisco Systems",
  "00:18:0a": "Cisco Meraki",
  "00:00:5e": "IANA",
  "00:03:93": "Apple",
  "00:04:f2": "Polycom",
  "00:05:69": "VMware",
  "00:05:85": "Juniper Networks",
  "00:09:0f": "Fortinet",
  "00:0b:82": "Grandstream Networks",
  "00:0b:86": "Aruba Networks",
  "00:0c:29": "VMware",
  "00:0f:e2": "H3C Technologies",
  "00:10:18": "Broadcom",
  "00:15:5d": "Microsoft",
  "00:16:3e": "Xensource",
  "00:17:88": "Philips Lighting",
  "00:1b:17": "Palo Alto Networks",
  "00:1c:42": "Parallels",
  "00:1c:73": "Arista Networks",
  "00:25:90": "Super Micro Computer",
  "00:50:56": "VMware",
  "00:a0:c9": "Intel",
  "00:e0:4c": "Realtek Semiconductor",
  "08:00:27": "PCS Systemtechnik (VirtualBox)",
  "b8:27:eb": "Raspberry Pi Foundation",
  "dc:a6:32": "Raspberry Pi Trading",
  "f0:9f:c2": "Ubiquiti",
};

export function macVendor(text: string): string {
  const octets = parseMac(text);
  if (!octets) return "";
  if (octets[0] & 0x01) return "MultiCast";
  if (octets[0] & 0x02) return "Locally Administered";
  return OUI_VENDORS[formatMac(text).slice(0, 8)] ?? "";
}
