/**
 * How a device is reached, with its secrets already decrypted by the application. The lab
 * hands out targets for its simulated switches in the same shape.
 */

/** How a driver reaches its device; secrets already decrypted by the caller. */
export interface SnmpTarget {
  host: string;
  port: number;
  version: "2c" | "3";
  community?: string;
  /** SNMPv3 */
  username?: string;
  auth_protocol?: "MD5" | "SHA" | "SHA-224" | "SHA-256" | "SHA-384" | "SHA-512";
  auth_key?: string;
  priv_protocol?: "DES" | "AES" | "AES-192" | "AES-256";
  priv_key?: string;
  context?: string;
  timeout_ms: number;
  retries: number;
}
