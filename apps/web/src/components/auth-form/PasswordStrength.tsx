import { passwordStrength } from '@gpu/shared/auth';
import { t } from '../../locales/zh-CN';
import styles from './PasswordStrength.module.css';

const LEVEL_COLOR = {
  很弱: '#ff4d4f',
  弱: '#fa8c16',
  中等: '#faad14',
  较强: '#73d13d',
  强: '#389e0d',
} as const;

/** The strength meter of SPEC.md §5: score bar, level and the requirements still missing. */
export function PasswordStrength({ password }: { password: string }) {
  if (!password) return null;
  const { score, level, missing } = passwordStrength(password);
  const color = LEVEL_COLOR[level];
  return (
    <div className={styles.meter} data-testid="password-strength" data-score={score}>
      <div className={styles.top}>
        <div className={styles.track} aria-hidden>
          <div className={styles.bar} style={{ width: `${score}%`, background: color }} />
        </div>
        <span className={styles.level} style={{ color }}>
          {t.register.strength}：{level}
        </span>
      </div>
      {missing.length > 0 && (
        <div className={styles.missing}>{t.register.strengthMissing(missing.join('、'))}</div>
      )}
    </div>
  );
}
