import { HOST_DRIVERS, type HostDriverKind } from '../hosts.tables.ts';
import { DriverNotSupportedError } from './driver-errors.ts';
import type { DriverCapabilities } from './host-driver.ts';

/** What each kind of host is; its driver reports the same (`HostDriver.capabilities`). */
export const DRIVER_CAPABILITIES: Readonly<Record<HostDriverKind, DriverCapabilities>> = {
  simulated: {
    localAllocation: true,
    ownSshAddress: false,
    dataVolume: true,
    recreate: true,
    clone: true,
    userImages: true,
    sampling: true,
  },
  docker: {
    localAllocation: true,
    ownSshAddress: false,
    dataVolume: true,
    recreate: true,
    clone: true,
    userImages: true,
    sampling: true,
  },
  // A rented machine: vast.ai picks it per rental, keeps its GPUs while it is stopped and gives
  // it an SSH address of its own; its disk is the rental's own, and a rental is not remade.
  vastai: {
    localAllocation: false,
    ownSshAddress: true,
    dataVolume: false,
    recreate: false,
    clone: false,
    userImages: false,
    sampling: false,
  },
};

/** The capabilities of a host's driver kind, without making the driver (no connection, no secrets). */
export function capabilitiesOf(kind: string): DriverCapabilities {
  const capabilities = DRIVER_CAPABILITIES[kind as HostDriverKind];
  if (!capabilities) throw new DriverNotSupportedError(kind);
  return capabilities;
}

/** The kinds of host whose GPUs and ports the platform allocates: the local hosts. */
export const LOCAL_DRIVER_KINDS: HostDriverKind[] = HOST_DRIVERS.filter(
  (kind) => DRIVER_CAPABILITIES[kind].localAllocation,
);
