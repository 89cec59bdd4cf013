import type Docker from 'dockerode';
import { ContainerConflictError, DriverFailureError } from '../driver-errors.ts';
import {
  type ContainerSpec,
  type HostRecord,
  LABELS,
  type NetworkSummary,
  networkNameOf,
} from '../host-driver.ts';
import { instanceIdOf, labelsOf, userIdOf } from '../labels.ts';
import { engineMessage, mapDockerError } from './docker-errors.ts';

/** The engine call wrapper of the driver: runs `fn`, engine errors mapped to driver errors. */
type Call = <T>(
  ctx: { op: string; image?: string; containerId?: string },
  fn: () => Promise<T>,
) => Promise<T>;

/**
 * The per-container bridge networks of one host (DESIGN §7): each container gets its own,
 * named after it and labelled as the platform's; removed with the container and by cleanup.
 */
export function dockerNetworks(docker: Docker, host: HostRecord, call: Call) {
  const statusOf = (err: unknown) => (err as { statusCode?: number }).statusCode;
  const managed = async (): Promise<NetworkSummary[]> => {
    const rows = await call({ op: 'network list' }, () =>
      docker.listNetworks({ filters: { label: [`${LABELS.managed}=true`] } }),
    );
    return rows.map((n) => ({
      id: n.Id,
      name: n.Name,
      instanceId: instanceIdOf(n.Labels ?? {}),
      userId: userIdOf(n.Labels ?? {}),
    }));
  };
  /** Removes a network; one already gone is not an error. */
  const remove = async (id: string) => {
    await call({ op: 'network remove' }, async () => {
      try {
        await docker.getNetwork(id).remove();
      } catch (err) {
        if (statusOf(err) !== 404) throw err;
      }
    });
  };
  /** Removes the platform's network of this name, if there is one (one look-up, not a listing). */
  const removeOwn = async (name: string) => {
    const own = await call({ op: 'network inspect' }, async () => {
      try {
        return await docker.getNetwork(name).inspect();
      } catch (err) {
        if (statusOf(err) === 404) return null;
        throw err;
      }
    });
    if (own?.Labels?.[LABELS.managed] === 'true') await remove(own.Id);
  };
  /**
   * The container's own bridge network: made now (answers true), or the one made for this very
   * instance before a crash or by a worker racing this one (answers false). A network of that
   * name that is not this instance's is a conflict, never shared.
   */
  const ensure = async (spec: ContainerSpec): Promise<boolean> => {
    const name = networkNameOf(spec);
    try {
      // CheckDuplicate: engines before API 1.44 would otherwise make a second network of the name.
      await docker.createNetwork({
        Name: name,
        Driver: 'bridge',
        CheckDuplicate: true,
        Labels: labelsOf(host, spec),
      });
      return true;
    } catch (err) {
      if (statusOf(err) !== 409) throw networkCreateError(err);
    }
    const existing = await call({ op: 'network inspect' }, () => docker.getNetwork(name).inspect());
    const labels: Record<string, string> = existing.Labels ?? {};
    if (labels[LABELS.managed] !== 'true' || instanceIdOf(labels) !== spec.instanceId) {
      throw new ContainerConflictError(`network ${name} exists and is not instance ${spec.instanceId}'s`);
    }
    return false;
  };
  return { managed, remove, removeOwn, ensure };
}

/**
 * A refused network create. Out of addresses (dockerd's default pools hold about 30 networks;
 * hosts configure `default-address-pools`, see README) is said as such, not as the 404 it comes as.
 */
function networkCreateError(err: unknown) {
  const message = engineMessage(err);
  if (
    /non-overlapping IPv4 address pool|address pools? (?:have been|are) (?:all )?(?:allocated|exhausted)/i.test(
      message,
    )
  ) {
    return new DriverFailureError(
      `network create: ${message}`,
      '主机的容器网络地址已用尽，请选择其他主机或联系管理员',
    );
  }
  return mapDockerError(err, { op: 'network create' });
}
