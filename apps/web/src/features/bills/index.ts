// What other features use of bills (the only way in from outside this folder): the spend figures.
export { useBillingMonitor } from './api/get-summary';
