import { createError } from '../../platform/errors.ts';

export const paymentErrors = {
  orderNotFound: () =>
    createError({ code: 'payments.order_not_found', status: 404, message: '充值订单不存在' }),
  tooManyPending: () =>
    createError({
      code: 'payments.too_many_pending',
      status: 429,
      message: '待支付的充值订单过多，请完成支付或等待订单关闭后再试',
    }),
  tooManyOrders: () =>
    createError({ code: 'payments.too_many_orders', status: 429, message: '充值下单过于频繁，请稍后再试' }),
  qrFailed: () =>
    createError({ code: 'payments.qr_failed', status: 502, message: '支付二维码生成失败，请重试' }),
};
