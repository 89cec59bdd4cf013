import { copyToClipboard } from '../../../lib/clipboard';
import { notify } from '../../../lib/feedback';

/** Copies `text` and says so; where the clipboard is refused, says to select it by hand. */
export async function copyText(text: string, texts: { copied: string; copyFailed: string }) {
  if (await copyToClipboard(text)) void notify('success', texts.copied);
  else void notify('error', texts.copyFailed);
}

/** Offers `text` as a download named `name` (recovery codes). */
export function downloadText(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
