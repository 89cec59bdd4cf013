import {
  enquiryHandleSchema,
  enquiryListQuerySchema,
  enquiryRequestSchema,
  enquirySchema,
  envelopeSchema,
  pageSchema,
} from '@gpu/shared';
import { z } from 'zod';
import { ok } from '../../platform/http/envelope.ts';
import { idParamsSchema } from '../../platform/http/params.ts';
import type { AppInstance } from '../../platform/http/types.ts';
import { adminActor, adminTenantScope } from '../auth/index.ts';
import type { ContactDeps } from './contact.deps.ts';
import { enquiryProducts, listEnquiries, markEnquiryHandled, submitEnquiry } from './contact.usecases.ts';

const idParams = idParamsSchema('咨询编号无效');

/** Bare-metal enquiries (SPEC.md §7 contact) and their back-office list. */
export async function contactRoutes(app: AppInstance, deps: ContactDeps) {
  app.get(
    '/api/contact/products',
    {
      schema: {
        tags: ['contact'],
        summary: '可咨询的产品（租户可配置）',
        response: { 200: envelopeSchema(z.array(z.string())) },
      },
    },
    async (request) => ok(enquiryProducts(request.tenant)),
  );

  app.post(
    '/api/contact/inquiry',
    {
      schema: {
        tags: ['contact'],
        summary: '提交裸金属咨询',
        body: enquiryRequestSchema,
        response: { 200: envelopeSchema(z.object({ id: z.number().int() })) },
      },
    },
    async (request) => {
      const e = await submitEnquiry(deps, request.tenant, request.body, request.ip);
      return ok({ id: e.id }, '咨询提交成功，我们会尽快联系您！');
    },
  );

  const admin = { preHandler: app.requireAdmin };
  const tags = ['admin-enquiries'];
  app.get(
    '/api/admin/enquiries',
    {
      ...admin,
      schema: {
        tags,
        summary: '咨询列表（按状态、租户、关键词筛选）',
        querystring: enquiryListQuerySchema,
        response: { 200: envelopeSchema(pageSchema(enquirySchema)) },
      },
    },
    async (request) => ok(await listEnquiries(deps, request.query, adminTenantScope(request))),
  );
  app.post(
    '/api/admin/enquiries/:id/handled',
    {
      ...admin,
      schema: {
        tags,
        summary: '标记咨询为已处理',
        params: idParams,
        body: enquiryHandleSchema,
        response: { 200: envelopeSchema(enquirySchema) },
      },
    },
    async (request) =>
      ok(
        await markEnquiryHandled(
          deps,
          adminActor(request),
          request.params.id,
          request.body.note,
          adminTenantScope(request),
        ),
        '已标记为已处理',
      ),
  );
}
