import { getTableColumns } from 'drizzle-orm';
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

/** Where an instance runs: its host's and region's columns (instances joined with hosts and regions). */
const placeColumns = {
  hostName: hosts.name,
  publicAddress: hosts.publicAddress,
  hostDriver: hosts.driver,
  regionName: regions.name,
  regionNoGpuPrice: regions.noGpuHourlyPrice,
};
const columns = getTableColumns(instances);
/**
 * The columns of an instance with its place, flat: drizzle builds each row once. (Rows nested
 * under `row` and spread into one object afterwards made objects V8 handles slowly: the list's
 * CPU per request fell by two fifths without that copy, issue 33.)
 */
export const withPlace = { ...columns, ...placeColumns };

/** What a listed instance carries: what the owner's view (toInstanceView) and the docker path read. */
const LISTED = [
  'id',
  'hostId',
  'skuId',
  'name',
  'image',
  'gpuModel',
  'gpuCount',
  'gpuIndices',
  'billingType',
  'hourlyRate',
  'noGpuRate',
  'packageUnitPrice',
  'duration',
  'status',
  'containerId',
  'sshPort',
  'jupyterPort',
  'extraPorts',
  'sshHost',
  'rootPasswordEnc',
  'jupyterTokenEnc',
  'sshPasswordAuth',
  'charged',
  'runningSince',
  'expiresAt',
  'stoppedAt',
  'releasedAt',
  'stopReason',
  'warning',
  'createdAt',
] as const satisfies readonly (keyof InstanceRow)[];
export type InstanceListed = Pick<InstanceWithPlace, (typeof LISTED)[number] | keyof typeof placeColumns>;

/** The columns of a listed instance with its place: a list reads a third fewer columns. */
export const listedWithPlace = {
  ...(Object.fromEntries(LISTED.map((k) => [k, columns[k]])) as Pick<
    typeof columns,
    (typeof LISTED)[number]
  >),
  ...placeColumns,
};
