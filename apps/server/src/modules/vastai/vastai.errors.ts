import { vastaiMessages } from '@gpu/shared';
import { createError } from '../../platform/errors.ts';

export const vastaiErrors = {
  notConfigured: () =>
    createError({ code: 'vastai.not_configured', status: 409, message: vastaiMessages.notConfigured }),
  offerGone: () => createError({ code: 'vastai.offer_gone', status: 409, message: vastaiMessages.offerGone }),
  imageUnavailable: () =>
    createError({ code: 'vastai.image_unavailable', status: 422, message: vastaiMessages.imageUnavailable }),
  notOverseas: () => createError({ code: 'vastai.not_found', status: 404, message: '海外实例不存在' }),
};
