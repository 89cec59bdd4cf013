// What other features use of billing (the only way in from outside this folder): the balance,
// the spend figures and runway, the money query keys and the refresh after money moves.
export { useBalance } from './api/get-balance';
export { useBillingMonitor, useDailyConsumption } from './api/get-summary';
export { billingKeys, billKeys } from './api/keys';
export { runwayText, SpendRunway, spendRateText } from './components/SpendRunway';
export { announceMoneyChange, refreshMoneyNow, useBalanceEvents } from './money-refresh';
export { useBalanceEventRefresh } from './use-balance-event-refresh';
