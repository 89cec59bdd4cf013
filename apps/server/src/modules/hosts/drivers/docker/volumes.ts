import type Docker from 'dockerode';
import { ContainerConflictError } from '../driver-errors.ts';
import { type ContainerSpec, type HostRecord, LABELS } from '../host-driver.ts';
import { instanceIdOf, labelsOf, userIdOf } from '../labels.ts';
import type { VolumeSummary } from '../volumes.ts';
import { engineMessage } from './docker-errors.ts';

type Call = <T>(ctx: { op: string }, fn: () => Promise<T>) => Promise<T>;

const statusOf = (err: unknown) => (err as { statusCode?: number }).statusCode;

/** The local driver refuses `size` where the file system has no project quota (not XFS pquota). */
const sizeUnsupported = (err: unknown) =>
  (statusOf(err) ?? 0) >= 400 && /quota|size/i.test(engineMessage(err));

/**
 * The data volumes of one host (volumes.ts): named after the instance, labelled as the
 * platform's (so cleanup touches only ours), the size asked for kept as a label.
 */
export function dockerVolumes(docker: Docker, host: HostRecord, call: Call) {
  const summary = (v: { Name: string; Labels?: Record<string, string> | null }): VolumeSummary => {
    const labels = v.Labels ?? {};
    const size = labels[LABELS.sizeGb];
    return {
      name: v.Name,
      instanceId: instanceIdOf(labels),
      userId: userIdOf(labels),
      sizeGb: size && /^\d+$/.test(size) ? Number(size) : null,
    };
  };
  const managed = async (): Promise<VolumeSummary[]> => {
    const res = await call({ op: 'volume list' }, () =>
      docker.listVolumes({ filters: { label: [`${LABELS.managed}=true`] } }),
    );
    return (res.Volumes ?? []).map(summary);
  };
  /** Removes a volume; one already gone is not an error. */
  const remove = async (name: string) => {
    await call({ op: 'volume remove' }, async () => {
      try {
        await docker.getVolume(name).remove();
      } catch (err) {
        if (statusOf(err) !== 404) throw err;
      }
    });
  };
  /**
   * The spec's data volume: the one this instance already has (a recreate, a crash), else made
   * now, with its size where the engine enforces one. A volume of that name that is not this
   * instance's is a conflict, never shared.
   */
  const ensure = async (spec: ContainerSpec) => {
    const v = spec.dataVolume;
    if (!v) return;
    const existing = await call({ op: 'volume inspect' }, async () => {
      try {
        return await docker.getVolume(v.name).inspect();
      } catch (err) {
        if (statusOf(err) === 404) return null;
        throw err;
      }
    });
    if (existing) {
      const labels: Record<string, string> = existing.Labels ?? {};
      if (labels[LABELS.managed] !== 'true' || instanceIdOf(labels) !== spec.instanceId)
        throw new ContainerConflictError(`volume ${v.name} exists and is not instance ${spec.instanceId}'s`);
      return;
    }
    const Labels = {
      ...labelsOf(host, spec),
      ...(v.sizeGb ? { [LABELS.sizeGb]: String(v.sizeGb) } : {}),
    };
    const make = (withSize: boolean) =>
      docker.createVolume({
        Name: v.name,
        Driver: 'local',
        Labels,
        ...(withSize && v.sizeGb ? { DriverOpts: { size: `${v.sizeGb}G` } } : {}),
      });
    await call({ op: 'volume create' }, async () => {
      try {
        await make(true);
      } catch (err) {
        if (!(v.sizeGb && sizeUnsupported(err))) throw err;
        await make(false);
      }
    });
  };
  return { managed, remove, ensure, summary };
}
