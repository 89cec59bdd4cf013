// What other features use of billing (the only way in from outside this folder): the balance,
// the money query keys and the refresh after money moves.
export { useBalance } from './api/get-balance';
export { billingKeys, billKeys } from './api/keys';
export { announceMoneyChange, refreshMoneyNow, useBalanceEvents } from './money-refresh';
export { useBalanceEventRefresh } from './use-balance-event-refresh';
