/**
 * The public face of hosts: what other modules may import (besides its tables files). The module's
 * definition for the app is hosts.module.ts.
 */

export { freePortsPicked, idleGpusPicked, type PortRange } from './allocation.repository.ts';
export { allocateOnHost, lockHost, releaseOnHost, retakeGpus, topUpPorts } from './allocation.ts';
export { cleanupOrphans, createInstanceContainer } from './containers.usecases.ts';
export { dockerPathRoutes } from './docker-path.routes.ts';
export { capabilitiesOf } from './drivers/capabilities.ts';
export { cloneTransferRefsOf } from './drivers/clone.ts';
export {
  ContainerConflictError,
  ContainerNotFoundError,
  DriverFailureError,
  HostDriverError,
  isDriverError,
  OperationNotSupportedError,
} from './drivers/driver-errors.ts';
export type {
  ContainerSample,
  ContainerSpec,
  HostDriver,
  HostRecord,
  SshAccess,
  SshAddress,
} from './drivers/host-driver.ts';
export { isUserImageRef, userImageRefOf } from './drivers/images.ts';
export { containerNameOf } from './drivers/instance-spec.ts';
export type { HostDriverRegistry } from './drivers/registry.ts';
export { setSimulatedGpuLoad } from './drivers/simulated/simulated.repository.ts';
export { createVastClient, type VastClient, type VastOffer } from './drivers/vastai/vastai-api.ts';
export type { VastaiRentals } from './drivers/vastai/vastai-driver.ts';
export { VASTAI_IMAGES } from './drivers/vastai/vastai-images.ts';
export { DATA_MOUNT_PATH, dataVolumeNameOf } from './drivers/volumes.ts';
export {
  countGpuStates,
  GPU_STATES,
  type GpuState,
  type GpuStateCounts,
  type GpuStateRow,
  gpuState,
  gpuStateCountsQuery,
  gpuUtilization,
  sumGpuStates,
} from './gpu-states.repository.ts';
export { driverErrorToAppError, hostErrors } from './hosts.errors.ts';
export { generateJupyterToken, generateRootPassword, resealSecrets } from './hosts.models.ts';
export { createHostsRepository } from './hosts.repository.ts';
export type { HostsDeps } from './hosts.usecases.ts';
export type { DockerInstanceGateway } from './instance-gateway.ts';
export { probeHost, storeProbe } from './probe.usecases.ts';
