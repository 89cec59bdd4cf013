import { idSchema } from '@gpu/shared';
import { z } from 'zod';

/** The `{ id }` path params of a route; `message` names the thing in Chinese for the 400. */
export const idParamsSchema = (message: string) => z.object({ id: idSchema(message) });
