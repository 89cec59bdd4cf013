// What other features use of admin-catalogue (the only way in from outside this folder).
export { useTenants } from './api/tenants';
