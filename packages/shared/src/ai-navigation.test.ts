import { describe, expect, it } from 'vitest';
import { aiNavigationUrl, DEFAULT_AI_NAVIGATION_URL } from './ai-navigation.ts';

describe('AI navigation URL', () => {
  it('takes the tenant URL when it is http(s), else the default', () => {
    expect(aiNavigationUrl('https://nav.example.com/ai')).toBe('https://nav.example.com/ai');
    expect(aiNavigationUrl('http://10.0.0.1:8080')).toBe('http://10.0.0.1:8080/');
    expect(aiNavigationUrl(undefined)).toBe(DEFAULT_AI_NAVIGATION_URL);
    expect(aiNavigationUrl('')).toBe(DEFAULT_AI_NAVIGATION_URL);
    expect(aiNavigationUrl('javascript:alert(1)')).toBe(DEFAULT_AI_NAVIGATION_URL);
    expect(aiNavigationUrl('not a url')).toBe(DEFAULT_AI_NAVIGATION_URL);
  });
});
