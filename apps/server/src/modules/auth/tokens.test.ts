import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../platform/clock.ts';
import { ACCESS_TTL_S, createTokenService } from './tokens.ts';

describe('access tokens', () => {
  it('verifies its own tokens for their audience, again from what it remembers, until they expire', async () => {
    const clock = fixedClock('2026-11-26T08:00:00Z');
    const tokens = createTokenService('a-secret-of-at-least-32-characters!', () => clock.now());
    const token = await tokens.sign('user', 7, { sid: 's1', tenantId: 3 });
    const claims = await tokens.verify(token, 'user');
    expect(claims).toMatchObject({ sub: '7', aud: 'user', sid: 's1', tid: 3 });
    expect(await tokens.verify(token, 'user')).toEqual(claims);
    // Remembered or not, another audience, another key and a changed byte are refused.
    expect(await tokens.verify(token, 'admin')).toBeNull();
    const other = createTokenService('another-secret-of-at-least-32-chars!', () => clock.now());
    expect(await other.verify(token, 'user')).toBeNull();
    const forged = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await tokens.verify(forged, 'user')).toBeNull();
    // Expiry is checked on every call, remembered or not.
    clock.advance(ACCESS_TTL_S.user * 1000 - 1);
    expect(await tokens.verify(token, 'user')).toEqual(claims);
    clock.advance(1);
    expect(await tokens.verify(token, 'user')).toBeNull();
  });
});
