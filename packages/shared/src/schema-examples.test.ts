import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as shared from './index.ts';
import * as notifications from './notifications.ts';

describe('schema examples (the API documentation shows them, issue 32)', () => {
  it('each parses with its own schema', () => {
    const checked: string[] = [];
    for (const [name, value] of Object.entries({ ...shared, ...notifications })) {
      if (!(value instanceof z.ZodType)) continue;
      const examples = value.meta()?.examples;
      if (!Array.isArray(examples)) continue;
      for (const example of examples) expect(value.safeParse(example).error, name).toBeUndefined();
      checked.push(name);
    }
    expect(checked).toEqual(
      expect.arrayContaining([
        'instanceSchema',
        'createInstanceRequestSchema',
        'marketItemSchema',
        'imageSchema',
        'billSchema',
        'balanceSchema',
        'accessTokenSchema',
        'accessTokenCreatedSchema',
        'accessTokenCreateSchema',
        'sshKeySchema',
        'notificationSchema',
      ]),
    );
  });
});
