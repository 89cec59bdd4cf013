import type { DbOrTx } from '../../platform/db/client.ts';
import type { ContainerSpec } from '../hosts/drivers/host-driver.ts';
import { containerNameOf } from '../hosts/hosts.models.ts';
import type { InstanceRow } from '../instances/instances.repository.ts';
import { createVastaiRepository } from './vastai.repository.ts';

/** vast.ai maps these container ports to its own host ports: SSH and JupyterLab. */
const OVERSEAS_CONTAINER_PORTS = [22, 8888];

/** The create of an overseas instance's vast.ai instance: its offer, disk and label. */
export async function overseasContainerSpec(
  deps: { db: DbOrTx },
  inst: InstanceRow,
  secrets: { rootPassword: string; jupyterToken: string },
): Promise<ContainerSpec> {
  const rental = await createVastaiRepository(deps).rental(inst.id);
  if (!rental) throw new Error(`instance ${inst.id} has no vast.ai rental`);
  return {
    name: containerNameOf(inst.id),
    image: inst.image,
    instanceId: inst.id,
    userId: inst.userId,
    gpuIndices: inst.gpuIndices,
    ports: OVERSEAS_CONTAINER_PORTS.map((p) => ({ containerPort: p, hostPort: 0 })),
    diskGb: rental.diskGb,
    env: { ROOT_PASSWORD: secrets.rootPassword, JUPYTER_TOKEN: secrets.jupyterToken },
    offerId: rental.offerId,
  };
}
