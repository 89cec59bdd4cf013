// What other features use of notices (the only way in from outside this folder).
export { UserNotices } from './components/UserNotices';
