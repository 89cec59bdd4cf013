import { createError } from '../../platform/errors.ts';

export const blockchainErrors = {
  notFound: () => createError({ code: 'blockchain.not_found', status: 404, message: '区块链订单不存在' }),
  txUsed: () =>
    createError({
      code: 'blockchain.tx_used',
      status: 409,
      message: '参数 txHash 无效：该交易已提交过订单',
    }),
  tooManyPending: (max: number) =>
    createError({
      code: 'blockchain.too_many_pending',
      status: 429,
      message: `待确认的订单已有${max}个，请等待确认后再提交`,
    }),
  networkClosed: () =>
    createError({
      code: 'blockchain.network_closed',
      status: 422,
      message: '参数 chain 无效：该网络暂未开通收款',
    }),
};
