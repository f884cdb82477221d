/** `switchdesk inventory import FILE.yaml` */
export async function importInventoryFile(_file: string): Promise<string> {
  throw new Error("inventory import is not available yet");
}
