/**
 * The actions on a switch of the inventory: choose its driver again (a new probe of its
 * sysObjectID), accept the SSH host key it presented, accept the TLS certificate it
 * presented. All are audited.
 */
import type { Actor } from "../audit";
import type { Services } from "../services";
import { notFound } from "../errors";

async function device(s: Services, id: number) {
  const d = await s.devices.byId(id);
  if (!d) throw notFound("Invalid switch id!");
  return d;
}

export async function redetectSwitch(s: Services, actor: Actor, id: number): Promise<void> {
  const d = await device(s, id);
  await s.devices.redetect(d);
  const row = await s.repos.inventory.get("switches", id);
  await s.audit.admin(
    actor,
    "switches",
    "redetect",
    { id, name: d.name },
    row?.detected_driver ? [`detected_driver=${row.detected_driver}`] : [],
  );
}

export async function acceptHostKey(s: Services, actor: Actor, id: number): Promise<void> {
  const d = await device(s, id);
  const row = await s.repos.inventory.get("switches", id);
  const presented = row?.ssh_host_key_presented ?? null;
  await s.devices.acceptHostKey(id, presented);
  await s.audit.admin(
    actor,
    "switches",
    "accept_hostkey",
    { id, name: d.name },
    presented ? [`ssh_host_key=${presented}`] : ["ssh_host_key cleared"],
  );
}

export async function acceptCertificate(s: Services, actor: Actor, id: number): Promise<void> {
  const d = await device(s, id);
  const row = await s.repos.inventory.get("switches", id);
  const presented = row?.tls_certificate_presented ?? null;
  await s.devices.acceptCertificate(id, presented);
  await s.audit.admin(
    actor,
    "switches",
    "accept_certificate",
    { id, name: d.name },
    presented ? [`tls_certificate=${presented}`] : ["tls_certificate cleared"],
  );
}
