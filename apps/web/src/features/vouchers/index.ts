// What other features and the app use of vouchers (the only way in from outside this folder).
export { useVoucherStats } from './api/get-voucher-stats';
export { voucherKeys } from './api/keys';
export { useVoucherEventRefresh } from './use-voucher-event-refresh';
