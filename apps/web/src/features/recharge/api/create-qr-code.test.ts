import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { qrErrorMessage, readQrEnvelope } from './create-qr-code';

const env = (patch: object) => ({
  success: true,
  code: '200',
  message: '成功',
  msg: '成功',
  data: null,
  ...patch,
});

describe('createQrCode messages (SPEC.md §8)', () => {
  it('answers the QR on code 200 with a QR string', () => {
    expect(readQrEnvelope(env({ data: { qrCode: 'https://x/qr', orderNo: 'R1' } }))).toEqual({
      ok: true,
      qr: { qrCode: 'https://x/qr', orderNo: 'R1' },
    });
  });

  it('a missing QR: "payment QR generation failed, please retry"', () => {
    expect(readQrEnvelope(env({ data: { qrCode: '', orderNo: 'R1' } }))).toEqual({
      ok: false,
      message: '支付二维码生成失败，请重试',
    });
    expect(readQrEnvelope(env({ data: null }))).toMatchObject({ message: '支付二维码生成失败，请重试' });
  });

  it('a non-200 code: the server msg, else "payment request failed"', () => {
    expect(readQrEnvelope(env({ code: '500', msg: '渠道维护中' }))).toEqual({
      ok: false,
      message: '渠道维护中',
    });
    expect(readQrEnvelope(env({ code: '500', msg: '', message: '' }))).toEqual({
      ok: false,
      message: '支付请求失败',
    });
    expect(qrErrorMessage(new ApiError('429', '充值下单过于频繁，请稍后再试', 429))).toBe(
      '充值下单过于频繁，请稍后再试',
    );
    expect(qrErrorMessage(new ApiError('502', '请求失败（502）', 502))).toBe('支付请求失败');
  });

  it('no answer at all: "payment request failed, please check login status"', () => {
    expect(qrErrorMessage(new ApiError('NETWORK', '网络错误', 0))).toBe('支付请求失败，请检查登录状态');
    expect(qrErrorMessage(new ApiError('INVALID_RESPONSE', 'x', 200))).toBe('支付请求失败，请检查登录状态');
    expect(qrErrorMessage(new Error('boom'))).toBe('支付请求失败，请检查登录状态');
  });
});
