import type { FastifyBaseLogger } from 'fastify';
import type { Now } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/client.ts';
import type { PaymentDriver } from './drivers/payment-driver.ts';

/** What the payment usecases, routes and tasks take (payments.module.ts builds it). */
export interface PaymentDeps {
  db: Db;
  now: Now;
  payments: PaymentDriver;
  log: FastifyBaseLogger;
}
