import { describe, expect, it } from 'vitest';
import { billingTypeOf, clampDuration, durationBounds } from './subscribe-params';

describe('subscribe URL and durations', () => {
  it('reads the billing type of the URL, pay-as-you-go otherwise', () => {
    expect(billingTypeOf('daily')).toBe('daily');
    expect(billingTypeOf('monthly')).toBe('monthly');
    expect(billingTypeOf('yearly')).toBe('hourly');
    expect(billingTypeOf(null)).toBe('hourly');
  });

  it('limits durations: daily 1–6, weekly 1–3, monthly 1–3 (SPEC.md §5)', () => {
    expect(durationBounds('daily')).toEqual({ min: 1, max: 6 });
    expect(durationBounds('weekly')).toEqual({ min: 1, max: 3 });
    expect(durationBounds('monthly')).toEqual({ min: 1, max: 3 });
    expect(clampDuration(6, 'daily')).toBe(6);
    expect(clampDuration(6, 'weekly')).toBe(3);
    expect(clampDuration(0, 'monthly')).toBe(1);
    expect(clampDuration(5, 'hourly')).toBe(1);
  });
});
