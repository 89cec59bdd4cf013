import { enquiryMessages } from '@gpu/shared/contact';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-client';
import { t } from '../../locales/zh-CN';
import { enquiryFailureMessage } from './pages/ContactPage';

describe('enquiry texts', () => {
  it('are the shared rule messages, verbatim', () => {
    expect(t.contact.messages).toEqual(enquiryMessages);
  });

  it('fail with the server message, else the SPEC fallback', () => {
    expect(enquiryFailureMessage(new ApiError('contact.too_many', '提交过于频繁，请稍后再试', 429))).toBe(
      '提交过于频繁，请稍后再试',
    );
    expect(enquiryFailureMessage(new ApiError('NETWORK', '网络错误', 0))).toBe('提交失败，请稍后重试');
    expect(enquiryFailureMessage(new ApiError('502', t.api.httpError(502), 502))).toBe(
      '提交失败，请稍后重试',
    );
    expect(enquiryFailureMessage(new Error('boom'))).toBe('提交失败，请稍后重试');
  });
});
