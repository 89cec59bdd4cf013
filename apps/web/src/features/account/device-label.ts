import { t } from '../../locales/zh-CN';

const BROWSERS: [RegExp, string][] = [
  [/Edg\//, 'Edge'],
  [/MicroMessenger\//, t.accountSecurity.wechatBrowser],
  [/OPR\/|Opera/, 'Opera'],
  [/Firefox\//, 'Firefox'],
  [/Chrome\/|CriOS\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Android/, 'Android'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Linux/, 'Linux'],
];

/** "Chrome · Windows" from a user agent; the raw text when neither is recognised. */
export function deviceLabel(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const browser = BROWSERS.find(([re]) => re.test(userAgent))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(userAgent))?.[1];
  if (!browser && !system) return userAgent;
  return [browser, system].filter(Boolean).join(' · ');
}
