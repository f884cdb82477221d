/**
 * A self-signed TLS certificate for the lab's HTTPS faces, made at start without any
 * tool or package: an ECDSA P-256 key from node:crypto and an X.509 v3 certificate
 * (RFC 5280) written in DER with the lab's own BER encoder. Like a switch out of the box,
 * every start has a new certificate, so the service must pin it (or be told to trust it).
 */
import { createHash, generateKeyPairSync, sign, X509Certificate } from "node:crypto";
import { encodeInteger, encodeOctets, encodeOid, tlv } from "../../mib/ber";

const SEQUENCE = 0x30;
const SET = 0x31;
const BIT_STRING = 0x03;
const UTF8_STRING = 0x0c;
const GENERALIZED_TIME = 0x18;

const OID = {
  ecdsaWithSha256: [1, 2, 840, 10045, 4, 3, 2],
  commonName: [2, 5, 4, 3],
  organization: [2, 5, 4, 10],
  subjectAltName: [2, 5, 29, 17],
  basicConstraints: [2, 5, 29, 19],
} as const;

export interface LabCertificate {
  /** PEM of the private key (PKCS#8) */
  key: string;
  /** PEM of the certificate */
  cert: string;
  /** SHA-256 of the certificate's DER, colon-separated hex, as `openssl x509 -fingerprint -sha256` prints it */
  fingerprint: string;
}

function time(date: Date): Buffer {
  const text = date
    .toISOString()
    .replace(/[-:T]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return encodeOctets(text, GENERALIZED_TIME);
}

function name(commonName: string): Buffer {
  const attribute = (oid: readonly number[], value: string) =>
    tlv(SET, tlv(SEQUENCE, encodeOid(oid), encodeOctets(value, UTF8_STRING)));
  return tlv(SEQUENCE, attribute(OID.organization, "switchdesk lab"), attribute(OID.commonName, commonName));
}

function bitString(content: Buffer): Buffer {
  return tlv(BIT_STRING, Buffer.from([0]), content);
}

/** SHA-256 of a certificate's DER in the usual colon form ("AB:CD:..."). */
export function certificateFingerprint(der: Buffer): string {
  return createHash("sha256")
    .update(der)
    .digest("hex")
    .toUpperCase()
    .replace(/(..)(?!$)/g, "$1:");
}

/**
 * A certificate for `commonName`, valid from an hour ago for `days`, naming the given IP
 * addresses in its subjectAltName (the lab serves 127.0.0.1).
 */
export function selfSignedCertificate(
  commonName: string,
  ips: readonly string[] = ["127.0.0.1"],
  days = 825,
): LabCertificate {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const spki = publicKey.export({ type: "spki", format: "der" });
  const algorithm = tlv(SEQUENCE, encodeOid(OID.ecdsaWithSha256));
  const now = Date.now();
  const serial = createHash("sha256").update(`${commonName}${now}${Math.random()}`).digest().subarray(0, 8);
  // a positive INTEGER in DER's shortest form: the first octet neither 0 nor above 0x7f
  // (a leading 0x00 before an octet below 0x80 is not DER, and OpenSSL refuses it)
  serial[0] = (serial[0] & 0x7f) | 0x40;
  const altNames = ips.map((ip) => encodeOctets(Buffer.from(ip.split(".").map(Number)), 0x87));
  const extensions = tlv(
    0xa3,
    tlv(
      SEQUENCE,
      tlv(SEQUENCE, encodeOid(OID.basicConstraints), encodeOctets(tlv(SEQUENCE))),
      tlv(SEQUENCE, encodeOid(OID.subjectAltName), encodeOctets(tlv(SEQUENCE, ...altNames))),
    ),
  );
  const tbs = tlv(
    SEQUENCE,
    tlv(0xa0, encodeInteger(2)), // v3
    encodeOctets(serial, 0x02),
    algorithm,
    name(commonName),
    tlv(SEQUENCE, time(new Date(now - 3_600_000)), time(new Date(now + days * 86_400_000))),
    name(commonName),
    spki,
    extensions,
  );
  const signature = sign("sha256", tbs, privateKey);
  const der = tlv(SEQUENCE, tbs, algorithm, bitString(signature));
  const cert = new X509Certificate(der); // throws when the DER is not a certificate
  return {
    key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    cert: cert.toString(),
    fingerprint: certificateFingerprint(der),
  };
}
