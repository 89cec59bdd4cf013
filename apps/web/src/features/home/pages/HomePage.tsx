import {
  BuildOutlined,
  CheckCircleFilled,
  ClusterOutlined,
  ControlOutlined,
  CustomerServiceOutlined,
  DatabaseOutlined,
  DeploymentUnitOutlined,
  LockOutlined,
  RightOutlined,
  ThunderboltOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import { Link } from 'react-router';
import { PlainLinkButton } from '../../../components/PlainButton';
import { loginPath } from '../../../lib/routing/navigation';
import { PATHS } from '../../../lib/routing/paths';
import { isLoggedIn } from '../../../lib/session';
import { useTenant } from '../../../lib/tenant-context';
import { useSession } from '../../../lib/use-session';
import { t } from '../../../locales/zh-CN';
import { HeroIllustration } from '../components/HeroIllustration';
import styles from './HomePage.module.css';

const h = t.home;
const ADVANTAGE_ICONS = [
  <ClusterOutlined key="gpu" />,
  <ThunderboltOutlined key="fast" />,
  <WalletOutlined key="billing" />,
  <DatabaseOutlined key="reliable" />,
  <LockOutlined key="secure" />,
  <CustomerServiceOutlined key="service" />,
];
const SERVICE_ICONS = [
  <BuildOutlined key="hw" />,
  <DeploymentUnitOutlined key="dc" />,
  <ControlOutlined key="ops" />,
];

/** SPEC.md §2 homepage: hero, six advantages, three enterprise services, call to action. */
export default function HomePage() {
  const { homepage, theme } = useTenant();
  const consoleTarget = isLoggedIn(useSession()) ? PATHS.console.root : loginPath(PATHS.console.root);

  return (
    <div className={styles.page}>
      <section
        className={styles.hero}
        style={{
          background: `linear-gradient(135deg, ${theme.gradientStart} 0%, ${theme.gradientEnd} 100%)`,
        }}
        data-testid="hero"
      >
        <div className={styles.heroGrid} aria-hidden />
        <div className={styles.heroInner}>
          <div className={styles.heroText}>
            <h1 style={{ color: homepage.titleColor }} data-testid="hero-title">
              {homepage.title}
            </h1>
            <p
              className={styles.subtitle}
              style={{ color: homepage.subtitleColor }}
              data-testid="hero-subtitle"
            >
              {homepage.subtitle}
            </p>
            {homepage.description && (
              <p className={styles.description} style={{ color: homepage.subtitleColor }}>
                {homepage.description}
              </p>
            )}
            <div className={styles.heroButtons}>
              <Link to={PATHS.market} className={styles.heroPrimary} data-testid="hero-use-now">
                {h.useNow}
              </Link>
              <Link to={consoleTarget} className={styles.heroGhost} data-testid="hero-console">
                {h.console}
              </Link>
            </div>
            <ul className={styles.highlights}>
              {h.heroHighlights.map((text) => (
                <li key={text}>
                  <CheckCircleFilled /> {text}
                </li>
              ))}
            </ul>
          </div>
          <div className={styles.heroVisual}>
            {homepage.heroImage ? (
              <img src={homepage.heroImage} alt="" className={styles.heroImage} />
            ) : (
              <HeroIllustration className={styles.heroImage} />
            )}
          </div>
        </div>
      </section>

      <section className={styles.section}>
        <header className={styles.sectionHead}>
          <h2>{h.advantagesTitle}</h2>
          <p>{h.advantagesSubtitle}</p>
        </header>
        <div className={styles.advantages}>
          {h.advantages.map((item, i) => (
            <article key={item.title} className={styles.advantage}>
              <span className={styles.advantageIcon}>{ADVANTAGE_ICONS[i]}</span>
              <h3>{item.title}</h3>
              <p>{item.text}</p>
            </article>
          ))}
        </div>
      </section>

      <section className={`${styles.section} ${styles.servicesSection}`}>
        <header className={styles.sectionHead}>
          <h2>{h.servicesTitle}</h2>
          <p>{h.servicesSubtitle}</p>
        </header>
        <div className={styles.services}>
          {h.services.map((item, i) => (
            <article key={item.title} className={styles.service} data-testid="service-card">
              <span className={styles.serviceIcon}>{SERVICE_ICONS[i]}</span>
              <h3>{item.title}</h3>
              <p>{item.text}</p>
              <ul>
                {item.points.map((point) => (
                  <li key={point}>
                    <CheckCircleFilled /> {point}
                  </li>
                ))}
              </ul>
              {/* The form preselects the card's service when the tenant offers it. */}
              <Link
                to={`${PATHS.contact}?product=${encodeURIComponent(item.title)}`}
                className={styles.enquire}
              >
                {h.enquire} <RightOutlined className={styles.enquireArrow} />
              </Link>
            </article>
          ))}
        </div>
      </section>

      <section className={styles.section}>
        <div className={styles.cta}>
          <div>
            <h2>{h.ctaTitle}</h2>
            <p>{h.ctaText}</p>
          </div>
          <div className={styles.ctaButtons}>
            <PlainLinkButton to={PATHS.market} type="primary" size="large" data-testid="cta-use-now">
              {h.useNow}
            </PlainLinkButton>
            <PlainLinkButton to={PATHS.contact} size="large">
              {h.ctaContact}
            </PlainLinkButton>
          </div>
        </div>
      </section>
    </div>
  );
}
