/**
 * Driver.learnInterfaces for a driver without a read of many interfaces at once: its
 * learnInterface() per id, side by side (the device's gate bounds the requests; a command
 * line session queues its commands, NETCONF matches replies by id, HTTP sessions share
 * their connection).
 */
import type { InterfaceView } from "../model/device";

export async function learnEach(
  learnInterface: (id: string) => Promise<InterfaceView | null>,
  ids: string[],
): Promise<Map<string, InterfaceView | null>> {
  const unique = [...new Set(ids)];
  const views = await Promise.all(unique.map((id) => learnInterface(id)));
  return new Map(unique.map((id, i) => [id, views[i]]));
}
