import { describe, expect, it } from 'vitest';
import { t } from '../locales/zh-CN';
import { ApiError } from './api-client';
import { failureMessage, waitSecondsOf } from './failure-message';

const texts = { failed: '登录失败', retry: '登录失败，请稍后重试' };

describe('failureMessage (SPEC.md §8)', () => {
  it('prefers the server message', () => {
    expect(failureMessage(new ApiError('auth.bad_credentials', '手机号或密码错误', 401), texts)).toBe(
      '手机号或密码错误',
    );
  });

  it('says failed when the server answered without a message', () => {
    expect(failureMessage(new ApiError('502', t.api.httpError(502), 502), texts)).toBe('登录失败');
    expect(failureMessage(new ApiError('INVALID_RESPONSE', t.api.invalidResponse, 200), texts)).toBe(
      '登录失败',
    );
    expect(failureMessage(new ApiError('500', '', 500), texts)).toBe('登录失败');
  });

  it('asks to retry later when no answer came or something unexpected broke', () => {
    expect(failureMessage(new ApiError('NETWORK', t.api.network, 0), texts)).toBe('登录失败，请稍后重试');
    expect(failureMessage(new ApiError('TIMEOUT', t.api.timeout, 0), texts)).toBe('登录失败，请稍后重试');
    expect(failureMessage(new TypeError('x'), texts)).toBe('登录失败，请稍后重试');
  });
});

describe('waitSecondsOf', () => {
  it('reads the wait of a 429 cooldown message', () => {
    expect(waitSecondsOf(new ApiError('auth.code_cooldown', '验证码发送过于频繁，请42秒后再试', 429))).toBe(
      42,
    );
  });

  it('is null for other errors and 429s without seconds', () => {
    expect(
      waitSecondsOf(new ApiError('auth.code_daily_cap', '今日验证码发送次数已达上限，请明天再试', 429)),
    ).toBeNull();
    expect(waitSecondsOf(new ApiError('x', '请42秒后再试', 400))).toBeNull();
    expect(waitSecondsOf(new Error('请42秒后再试'))).toBeNull();
  });
});
