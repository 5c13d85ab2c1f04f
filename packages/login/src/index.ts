export { hashPassword, verifyPassword } from './passwords.js';
export {
  createLoginThrottle,
  type AttemptCounters,
  type LoginLimits,
  type LoginThrottle,
  type ThrottledAttempt,
} from './throttle.js';
