import { sql } from 'drizzle-orm';
import { DEFAULT_TENANT_SETTINGS, SECOND_TENANT } from '../../src/modules/system/demo-data.ts';
import type { Db } from '../../src/platform/db/client.ts';
import { lit, SCALE_REGIONS, SCALE_TENANTS } from './plan.ts';

const rowsOf = <T>(res: unknown): T[] => (res as { rows: T[] }).rows;

/**
 * The three tenants and eight regions, whatever the first start wrote: the default tenant, the
 * demo's second (aurora) and a third; the demo's five regions and three more (by code).
 */
export async function ensureTenantsAndRegions(db: Db): Promise<{ tenantIds: number[]; regionIds: number[] }> {
  await db.execute(
    sql.raw(
      `insert into regions (name, code, sort_order, overseas) values ${SCALE_REGIONS.map(
        (r) => `(${lit(r.name)}, ${lit(r.code)}, ${r.sortOrder}, ${r.overseas})`,
      ).join(', ')} on conflict do nothing`,
    ),
  );
  const regions = rowsOf<{ id: number; code: string }>(await db.execute(sql`select id, code from regions`));
  const regionIds = SCALE_REGIONS.map((r) => {
    const id = regions.find((x) => x.code === r.code)?.id;
    if (id === undefined) throw new Error(`region ${r.code} missing`);
    return id;
  });
  const auroraRegions = SECOND_TENANT.visibleRegionCodes.map(
    (c) => regionIds[SCALE_REGIONS.findIndex((r) => r.code === c)],
  );
  for (const t of SCALE_TENANTS) {
    if (!t.code) continue;
    const config =
      t.code === SECOND_TENANT.code
        ? SECOND_TENANT.settings(auroraRegions as number[])
        : DEFAULT_TENANT_SETTINGS;
    await db.execute(
      sql`insert into tenants (code, name, config) values (${t.code}, ${t.name}, ${JSON.stringify(config)}::jsonb) on conflict do nothing`,
    );
    await db.execute(
      sql`insert into tenant_domains (host, tenant_id) select ${t.host}, id from tenants where code = ${t.code} on conflict do nothing`,
    );
  }
  const tenants = rowsOf<{ id: number; code: string; is_default: boolean }>(
    await db.execute(sql`select id, code, is_default from tenants`),
  );
  const tenantIds = SCALE_TENANTS.map((t) => {
    const id = tenants.find((x) => (t.code ? x.code === t.code : x.is_default))?.id;
    if (id === undefined) throw new Error(`tenant ${t.code ?? 'default'} missing`);
    return id;
  });
  return { tenantIds, regionIds };
}
