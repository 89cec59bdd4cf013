import { hosts, regions } from '../hosts/hosts.tables.ts';
import { instances } from './instances.tables.ts';

export type InstanceRow = typeof instances.$inferSelect;
/** An instance with where it runs: its host's name and address, its region's. */
export type InstanceWithPlace = InstanceRow & {
  hostName: string;
  publicAddress: string;
  regionName: string;
  hostDriver: string;
  /** Its region's no-GPU mode price (units/h, issue 30); create's answer has none to offer. */
  regionNoGpuPrice?: number;
};

/** The columns of an instance with its place (instances joined with hosts and regions). */
export const withPlace = {
  row: instances,
  hostName: hosts.name,
  publicAddress: hosts.publicAddress,
  hostDriver: hosts.driver,
  regionName: regions.name,
  regionNoGpuPrice: regions.noGpuHourlyPrice,
};
export const flatten = (r: {
  row: InstanceRow;
  hostName: string;
  publicAddress: string;
  hostDriver: string;
  regionName: string;
  regionNoGpuPrice: number;
}) => ({
  ...r.row,
  hostName: r.hostName,
  publicAddress: r.publicAddress,
  hostDriver: r.hostDriver,
  regionName: r.regionName,
  regionNoGpuPrice: r.regionNoGpuPrice,
});
