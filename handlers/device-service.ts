/**
 * Placeholder of the device layer's entry point; the device endpoints (menu, reads,
 * writes) are built on it.
 */
export class DeviceService {}
