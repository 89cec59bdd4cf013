// What the app uses of admin (the only way in from outside this folder).
export { adminLogout } from './api/admin-logout';
export { useAdminProfile } from './api/get-admin-profile';
