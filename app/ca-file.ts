/**
 * The CA file a credential profile may name instead of pinning (connectors 1 and 3, the
 * HTTPS API drivers): a PEM file of CA certificates on the service's machine, checked when
 * an administrator saves the profile (the admin API and the YAML import) and read again
 * each time a call opens a device, so a replaced file takes effect without a restart. A
 * file that cannot be used is a problem in words, never an exception that escapes.
 */
import fs from "node:fs";
import path from "node:path";
import { X509Certificate } from "node:crypto";

/** a CA bundle is a few hundred KiB at most (the whole Mozilla set is about 220 KiB) */
export const CA_FILE_MAX_BYTES = 1024 * 1024;

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[A-Za-z0-9+/=\s]+?-----END CERTIFICATE-----/g;

export type CaFileAnswer = { pem: string } | { problem: string };

/** The problem with a path before it is opened: it must be absolute (the service's working folder is no one's business). */
export function caPathProblem(file: string): string | null {
  if (!path.isAbsolute(file)) return "expected an absolute path to a PEM file";
  return null;
}

/** The certificates of a file's text, or what is wrong with it. */
export function caFromText(text: string): CaFileAnswer {
  const blocks = text.match(PEM_CERTIFICATE) ?? [];
  if (!blocks.length) return { problem: "holds no PEM certificate (-----BEGIN CERTIFICATE-----)" };
  for (const [i, block] of blocks.entries()) {
    try {
      new X509Certificate(block);
    } catch {
      return { problem: `its certificate number ${i + 1} is not a valid X.509 certificate` };
    }
  }
  return { pem: blocks.join("\n") + "\n" };
}

function readProblem(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return "cannot be read: no such file";
  if (code === "EACCES" || code === "EPERM") return "cannot be read: permission denied";
  if (code === "EISDIR") return "cannot be read: it is a folder";
  return `cannot be read (${code ?? (e instanceof Error ? e.message : String(e))})`;
}

/** Checks and reads the file now (an administrator's save: small, once). */
export function readCaFileSync(file: string): CaFileAnswer {
  const bad = caPathProblem(file);
  if (bad) return { problem: bad };
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) return { problem: "cannot be read: not a regular file" };
    if (stat.size > CA_FILE_MAX_BYTES) return { problem: `is larger than ${CA_FILE_MAX_BYTES} bytes` };
    return caFromText(fs.readFileSync(file, "latin1"));
  } catch (e) {
    return { problem: readProblem(e) };
  }
}

/** Reads the file for a device call. */
export async function readCaFile(file: string): Promise<CaFileAnswer> {
  const bad = caPathProblem(file);
  if (bad) return { problem: bad };
  try {
    const stat = await fs.promises.stat(file);
    if (!stat.isFile()) return { problem: "cannot be read: not a regular file" };
    if (stat.size > CA_FILE_MAX_BYTES) return { problem: `is larger than ${CA_FILE_MAX_BYTES} bytes` };
    return caFromText(await fs.promises.readFile(file, "latin1"));
  } catch (e) {
    return { problem: readProblem(e) };
  }
}
