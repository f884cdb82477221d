/**
 * A write's interface view carries what the driver's learnInterface() found beside the
 * row (`driverContext`: an ifIndex, a port name, its mode...), for the setter to use
 * without reading the device again. A view learned by another driver is a programming
 * error, not a device failure.
 */
import type { InterfaceView } from "../model/device";

/** The context `driver` put on the view; `key` is a field every context of that driver has. */
export function learnedContext<T extends object>(view: InterfaceView, key: keyof T & string, driver: string): T {
  const context = view.driverContext;
  if (typeof context !== "object" || context === null || !(key in context))
    throw new TypeError(`the interface view was not learned by ${driver}`);
  return context as T;
}
