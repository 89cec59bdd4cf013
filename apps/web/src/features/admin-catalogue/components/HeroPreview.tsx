import { Button } from 'antd';
import { ta } from '../../../locales/zh-CN.admin';
import styles from './admin.module.css';

const m = ta.adminCatalogue.tenants;

export interface HeroLook {
  theme?: { primaryColor?: string; gradientStart?: string; gradientEnd?: string };
  homepage?: { title?: string; titleColor?: string; subtitle?: string; subtitleColor?: string };
}

/** The homepage hero as the tenant's visitors will see it, updated while the form is edited. */
export function HeroPreview({ look }: { look: HeroLook }) {
  const theme = look.theme ?? {};
  const home = look.homepage ?? {};
  return (
    <div
      className={styles.hero}
      data-testid="hero-preview"
      style={{
        background: `linear-gradient(135deg, ${theme.gradientStart ?? '#200beb'}, ${theme.gradientEnd ?? '#7b61ff'})`,
      }}
    >
      <h2 className={styles.heroTitle} style={{ color: home.titleColor }}>
        {home.title || '—'}
      </h2>
      <p className={styles.heroSubtitle} style={{ color: home.subtitleColor }}>
        {home.subtitle}
      </p>
      <div className={styles.heroButtons}>
        <Button type="primary" style={{ background: theme.primaryColor, borderColor: '#ffffff' }}>
          {m.previewUse}
        </Button>
        <Button ghost>{m.previewConsole}</Button>
      </div>
    </div>
  );
}
