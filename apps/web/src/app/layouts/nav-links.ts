import { PATHS } from '../../lib/routing/paths';
import { t } from '../../locales/zh-CN';

/** SPEC.md §2 top navigation (the console entry is a button beside them). */
export const NAV_LINKS = [
  { to: PATHS.market, label: t.nav.market },
  { to: PATHS.contact, label: t.nav.contact },
  { to: PATHS.aiNavigation, label: t.nav.aiNavigation },
  { to: PATHS.blockchain, label: t.nav.blockchain },
] as const;
