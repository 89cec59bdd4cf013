/**
 * Instances whose creation this tab is waiting on (sessionStorage: it outlives the move from
 * the order page to the console). CreationWatcher reports each one's outcome once.
 */
const KEY = 'gpu.instances.creating';
const CHANGED = 'gpu-instances-watch-changed';

export function watchedCreations(): number[] {
  try {
    const raw = JSON.parse(window.sessionStorage.getItem(KEY) ?? '[]') as unknown;
    return Array.isArray(raw) ? raw.filter((v): v is number => typeof v === 'number') : [];
  } catch {
    return [];
  }
}

function save(ids: number[]) {
  try {
    window.sessionStorage.setItem(KEY, JSON.stringify(ids));
  } catch {
    // No storage: the outcome shows on the list only.
  }
  window.dispatchEvent(new Event(CHANGED));
}

/** Called when an order is accepted (the instance is CREATING). */
export const watchCreation = (id: number) => save([...new Set([...watchedCreations(), id])]);

export const unwatchCreation = (id: number) => save(watchedCreations().filter((w) => w !== id));

export function onWatchChange(listener: () => void): () => void {
  window.addEventListener(CHANGED, listener);
  return () => window.removeEventListener(CHANGED, listener);
}
