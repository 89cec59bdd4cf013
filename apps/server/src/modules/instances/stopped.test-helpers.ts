import { eq } from 'drizzle-orm';
import { IMAGE, type instanceTestApp } from '../../test/instances.ts';
import { dataVolumeNameOf } from '../hosts/drivers/volumes.ts';
import { simulatedContainers, simulatedVolumes } from '../hosts/hosts.tables.ts';
import { instances } from './instances.tables.ts';

type App = Awaited<ReturnType<typeof instanceTestApp>>;

/** Look-ups the instance tests share; `app` is read at each call (the app starts in beforeAll). */
export function lookups(app: () => App) {
  return {
    row: async (id: number) => (await app().t.db.select().from(instances).where(eq(instances.id, id)))[0],
    container: async (id: string) =>
      (await app().t.db.select().from(simulatedContainers).where(eq(simulatedContainers.id, id)))[0],
    volume: async (instanceId: number) =>
      (
        await app()
          .t.db.select()
          .from(simulatedVolumes)
          .where(eq(simulatedVolumes.name, dataVolumeNameOf(instanceId)))
      )[0],
  };
}

/**
 * A funded user's powered-off pay-as-you-go 1-GPU instance on `host`, with `system` files on its
 * system disk and, if given, `data` files in its data volume.
 */
export async function stoppedWithFiles(
  h: App,
  o: {
    host: string;
    name: string;
    yuan: number;
    system: Record<string, string>;
    data?: Record<string, string>;
  },
) {
  const u = await h.funded(o.yuan);
  const res = await h.create(u.headers, {
    machineId: await h.idOf(o.host),
    instanceName: o.name,
    image: IMAGE,
    gpuAmount: 1,
    billingType: 'hourly',
  });
  const id = res.json().data.id as number;
  await h.action(u.headers, 'power_off', id);
  const containerId = (await lookups(() => h).row(id))?.containerId as string;
  await h.t.db
    .update(simulatedContainers)
    .set({ files: o.system })
    .where(eq(simulatedContainers.id, containerId));
  if (o.data)
    await h.t.db
      .update(simulatedVolumes)
      .set({ files: o.data })
      .where(eq(simulatedVolumes.name, dataVolumeNameOf(id)));
  return { u, id, containerId };
}
