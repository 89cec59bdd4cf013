import { DEFAULT_TENANT_CONFIG } from '@gpu/shared';
import type { Database, Db } from '../../platform/db/client.ts';
import type { SecretBox } from '../../platform/secret-box.ts';
import { ensureFirstAdmin } from '../admins/index.ts';
import { createTenantsRepository } from '../tenants/index.ts';
import { DEFAULT_TENANT_SETTINGS, SECOND_TENANT } from './demo-data.ts';
import { sealStoredSecrets } from './secrets.usecases.ts';
import { claimFirstStart, insertDemoCatalogue } from './system.repository.ts';

const DEFAULT_TENANT = { code: DEFAULT_TENANT_CONFIG.tenantCode, name: DEFAULT_TENANT_CONFIG.tenantName };

/**
 * Everything a start does to the database before serving: migrations, first-start data and the
 * first admin, under the start-up lock, so several replicas starting together on an empty
 * PostgreSQL migrate and seed once, one after the other (main.ts; tests call it concurrently).
 */
export async function prepareDatabase(
  database: Database,
  opts: {
    demo: boolean;
    admin: { username: string; password?: string };
    now?: Date;
    /** When given, stored secrets are sealed under its current key (sealStoredSecrets). */
    box?: SecretBox;
    log?: (msg: string, detail: object) => void;
  },
) {
  return database.withStartupLock(async () => {
    await database.migrate();
    const seeded = await seedOnFirstStart(database, { demo: opts.demo, now: opts.now });
    const admin = await ensureFirstAdmin(database, opts.admin);
    const secrets = opts.box ? await sealStoredSecrets({ db: database.db, box: opts.box }, opts.log) : null;
    return { seeded, admin, secrets };
  });
}

/**
 * Seeds what a fresh installation needs, once: the default tenant always; the demo catalogue
 * and second tenant when `demo` is set. A marker row makes it idempotent and safe on several
 * replicas starting together; later edits are never overwritten because nothing runs twice.
 */
export async function seedOnFirstStart(
  { db }: { db: Db },
  opts: { demo: boolean; now?: Date },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await claimFirstStart(tx, { demo: opts.demo }))) return false;

    const tenants = createTenantsRepository({ db: tx });
    await tenants.insert({
      ...DEFAULT_TENANT,
      isDefault: true,
      config: opts.demo ? DEFAULT_TENANT_SETTINGS : { ...DEFAULT_TENANT_SETTINGS, ...emptyBranding },
      domains: ['localhost'],
    });
    if (!opts.demo) return true;

    const regionIds = await insertDemoCatalogue(tx, opts.now ?? new Date());
    const visible = SECOND_TENANT.visibleRegionCodes.map((c) => regionIds.get(c) as number);
    await tenants.insert({
      code: SECOND_TENANT.code,
      name: SECOND_TENANT.name,
      isDefault: false,
      config: SECOND_TENANT.settings(visible),
      domains: [SECOND_TENANT.host],
    });
    return true;
  });
}

const emptyBranding = {
  logoUrl: '',
  logoDarkUrl: '',
  faviconUrl: '',
  contact: { phone: '', email: '', supportUrl: '' },
  footer: { beianNumber: '', wechatOfficialQr: '', wechatServiceQr: '' },
};
