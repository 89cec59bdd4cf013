// The routes read the user auth usecases as one namespace; sessions and account changes live apart.
export {
  changePassword,
  changePhone,
  isAvailable,
  type OpenAccount,
  register,
  resetPassword,
  sendCode,
} from './account.usecases.ts';
export {
  type AuthDeps,
  currentUser,
  login,
  logout,
  recentSignIns,
  refresh,
  type Session,
} from './sessions.usecases.ts';
