// What other features use of auth (the only way in from outside this folder).
export { changePassword } from './api/change-password';
export { useSendCode, validPhoneOf } from './use-send-code';
