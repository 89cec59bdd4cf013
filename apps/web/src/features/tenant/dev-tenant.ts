/** What the development tenant switcher keeps in localStorage (SPEC.md §2). */
const KEYS = { tenant: 'gpu.dev.tenant', position: 'gpu.dev.switcherPosition' } as const;

export const getDevTenantCode = (): string | null => window.localStorage.getItem(KEYS.tenant);

export function setDevTenantCode(code: string | null) {
  if (code) window.localStorage.setItem(KEYS.tenant, code);
  else window.localStorage.removeItem(KEYS.tenant);
}

export interface Position {
  x: number;
  y: number;
}

export function getSwitcherPosition(): Position | null {
  try {
    const value = JSON.parse(window.localStorage.getItem(KEYS.position) ?? 'null') as Position | null;
    return value && Number.isFinite(value.x) && Number.isFinite(value.y) ? value : null;
  } catch {
    return null;
  }
}

export const setSwitcherPosition = (position: Position) =>
  window.localStorage.setItem(KEYS.position, JSON.stringify(position));
