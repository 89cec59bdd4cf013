import {
  CheckCircleFilled,
  CloudServerOutlined,
  DatabaseOutlined,
  DesktopOutlined,
  InfoCircleOutlined,
  SafetyCertificateOutlined,
} from '@ant-design/icons';
import { formatMoney } from '@gpu/shared/money';

import { LinkButton } from '../../../components/LinkButton';
import { Price } from '../../../components/Price';
import { PATHS } from '../../../lib/routing/paths';
import { t } from '../../../locales/zh-CN';
import styles from './CloudPage.module.css';

const c = t.cloud;
const FEATURE_ICONS = [
  <CloudServerOutlined key="dedicated" />,
  <DesktopOutlined key="os" />,
  <DatabaseOutlined key="storage" />,
  <SafetyCertificateOutlined key="security" />,
];

/** /cloud (SPEC.md §2): GPU cloud hosts, a static product page with hard-coded sample configurations. */
export default function CloudPage() {
  return (
    <div className={styles.page}>
      <section className={styles.hero}>
        <div className={styles.heroInner}>
          <div className={styles.heroText}>
            <span className={styles.eyebrow}>{c.eyebrow}</span>
            <h1 className={styles.title}>{c.title}</h1>
            <p className={styles.subtitle}>{c.subtitle}</p>
            <ul className={styles.highlights}>
              {c.highlights.map((text) => (
                <li key={text}>
                  <CheckCircleFilled />
                  {text}
                </li>
              ))}
            </ul>
            <div className={styles.heroActions}>
              <LinkButton to={PATHS.contact} size="large" className={styles.heroPrimary}>
                {c.enquire}
              </LinkButton>
              <LinkButton to={PATHS.market} size="large" ghost>
                {c.tryMarket}
              </LinkButton>
            </div>
          </div>
          <dl className={styles.stats}>
            {c.stats.map((stat) => (
              <div key={stat.label} className={styles.stat}>
                <dt>{stat.label}</dt>
                <dd>{stat.value}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>

      <section className={styles.section} aria-labelledby="cloud-configs">
        <h2 id="cloud-configs" className={styles.sectionTitle}>
          {c.configsTitle}
        </h2>
        <p className={styles.sectionSubtitle}>{c.configsSubtitle}</p>
        <p className={styles.notice} data-testid="cloud-sample-notice">
          <InfoCircleOutlined />
          {c.sampleNotice}
        </p>
        <div className={styles.configs}>
          {c.configs.map((config) => (
            <article
              key={config.name}
              className={config.popular ? `${styles.config} ${styles.popular}` : styles.config}
              data-testid="cloud-config"
            >
              {config.popular ? <span className={styles.badge}>{c.popular}</span> : null}
              <h3 className={styles.configName}>{config.name}</h3>
              <p className={styles.scene}>{config.scene}</p>
              <div className={styles.gpu}>{config.gpu}</div>
              <dl className={styles.specs}>
                <div>
                  <dt>{c.specCpu}</dt>
                  <dd>{config.cpu}</dd>
                </div>
                <div>
                  <dt>{c.specMemory}</dt>
                  <dd>{config.memory}</dd>
                </div>
                <div>
                  <dt>{c.specDisk}</dt>
                  <dd>{config.disk}</dd>
                </div>
                <div>
                  <dt>{c.specNetwork}</dt>
                  <dd>{config.network}</dd>
                </div>
              </dl>
              <div className={styles.price}>
                <Price value={config.monthly} unit={c.perMonth} size="lg" />
                <span className={styles.hourly}>{c.perHourRef(formatMoney(config.hourly))}</span>
              </div>
              <LinkButton to={PATHS.contact} type={config.popular ? 'primary' : 'default'} block size="large">
                {c.enquire}
              </LinkButton>
            </article>
          ))}
        </div>
      </section>

      <section className={styles.featuresBand} aria-labelledby="cloud-features">
        <div className={styles.section}>
          <h2 id="cloud-features" className={styles.sectionTitle}>
            {c.featuresTitle}
          </h2>
          <div className={styles.features}>
            {c.features.map((feature, i) => (
              <div key={feature.title} className={styles.feature}>
                <span className={styles.featureIcon}>{FEATURE_ICONS[i]}</span>
                <h3>{feature.title}</h3>
                <p>{feature.text}</p>
              </div>
            ))}
          </div>
        </div>
      </section>

      <section className={styles.section}>
        <div className={styles.cta}>
          <div>
            <h2>{c.ctaTitle}</h2>
            <p>{c.ctaText}</p>
          </div>
          <LinkButton to={PATHS.contact} type="primary" size="large">
            {c.enquire}
          </LinkButton>
        </div>
      </section>
    </div>
  );
}
