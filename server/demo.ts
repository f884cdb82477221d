/** The built-in lab for a newcomer: started when the inventory is empty (SWITCHDESK_DEMO). */
import type { Services } from "../handlers/context";

export async function startDemoIfWanted(_s: Services, _say: (line: string) => void): Promise<{ stop(): Promise<void> } | null> {
  return null;
}
