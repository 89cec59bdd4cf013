import {
  type AdminActor,
  DEFAULT_ENQUIRY_PRODUCTS,
  type Enquiry,
  type EnquiryListQuery,
  type EnquiryRequest,
  type Page,
} from '@gpu/shared';
import type { Now } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';
import { recordAudit } from '../audit/index.ts';
import { countHit } from '../auth/index.ts';
import type { TenantRecord } from '../tenants/index.ts';
import { contactErrors } from './contact.errors.ts';
import { createContactRepository, type EnquiryRow } from './contact.repository.ts';

export interface ContactDeps {
  db: Db;
  now: Now;
}

/** Enquiries per hour: an address may send a few (an office shares one), a phone fewer. */
export const ENQUIRY_LIMITS = { windowMs: 3600_000, perIp: 10, perPhone: 3 } as const;

/** The tenant's product list (its config `enquiryProducts`), else the platform's default three. */
export function enquiryProducts(tenant: TenantRecord): string[] {
  const own = tenant.config.enquiryProducts?.filter((p) => p.trim());
  return own?.length ? own : [...DEFAULT_ENQUIRY_PRODUCTS];
}

const toEnquiry = (r: EnquiryRow): Enquiry => ({
  id: r.id,
  tenantId: r.tenantId,
  name: r.name,
  phone: r.phone,
  company: r.company,
  product: r.product,
  quantity: r.quantity,
  question: r.question,
  status: r.status as Enquiry['status'],
  ip: r.ip,
  createdAt: r.createdAt.toISOString(),
  handledAt: r.handledAt?.toISOString() ?? null,
  handledNote: r.handledNote,
});

/**
 * Stores an enquiry. Counted per address and per phone in the shared rate-limit table (keys carry
 * the tenant), so replicas share the limit and a flood never reaches the enquiries table.
 */
export async function submitEnquiry(
  deps: ContactDeps,
  tenant: TenantRecord,
  input: EnquiryRequest,
  ip: string,
): Promise<Enquiry> {
  if (!enquiryProducts(tenant).includes(input.product)) throw contactErrors.productUnknown();
  const nowMs = deps.now().getTime();
  const { windowMs, perIp, perPhone } = ENQUIRY_LIMITS;
  const byIp = await countHit(deps.db, `contact.inquiry|t${tenant.id}|ip:${ip}`, windowMs, nowMs);
  if (byIp.current > perIp) throw contactErrors.tooMany();
  const phone = input.phone.replace(/[\s-]/g, '');
  const byPhone = await countHit(deps.db, `contact.inquiry|t${tenant.id}|phone:${phone}`, windowMs, nowMs);
  if (byPhone.current > perPhone) throw contactErrors.tooMany();
  const row = await createContactRepository(deps).insert({
    tenantId: tenant.id,
    name: input.name,
    phone: input.phone,
    company: input.company ?? null,
    product: input.product,
    quantity: input.quantity,
    question: input.question ?? null,
    ip,
    createdAt: deps.now(),
  });
  return toEnquiry(row);
}

/** `scope`: a tenant operator's tenant, which overrides any tenant filter; null lists every tenant. */
export async function listEnquiries(
  deps: ContactDeps,
  q: EnquiryListQuery,
  scope: number | null,
): Promise<Page<Enquiry>> {
  const { rows, total } = await createContactRepository(deps).list(
    { tenantId: scope ?? q.tenantId, status: q.status, keyword: q.keyword },
    { page: q.page, size: q.size },
  );
  return { list: rows.map(toEnquiry), total, page: q.page, size: q.size };
}

/**
 * Marks an enquiry handled (again is fine: the note is replaced); audited in the same transaction.
 * Another tenant's enquiry is "not found" to a tenant operator (`scope`).
 */
export async function markEnquiryHandled(
  deps: ContactDeps,
  actor: AdminActor,
  id: number,
  note: string | undefined,
  scope: number | null,
): Promise<Enquiry> {
  return deps.db.transaction(async (tx) => {
    const repo = createContactRepository({ db: tx });
    const before = await repo.byIdForUpdate(id, scope);
    if (!before) throw contactErrors.notFound();
    const after = await repo.markHandled(id, actor.adminId || null, deps.now(), note ?? null);
    if (!after) throw contactErrors.notFound();
    await recordAudit(tx, actor, 'contact.enquiry_handled', `enquiry:${id}`, {
      before: { status: before.status, handledNote: before.handledNote },
      after: { status: after.status, handledNote: after.handledNote },
    });
    return toEnquiry(after);
  });
}
