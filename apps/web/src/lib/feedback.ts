import type { ModalFuncProps } from 'antd';

/**
 * Toasts and confirm dialogs, loaded on first use: antd's message and Modal (with antd's App,
 * about 40 kB gzip) stay out of the first page's bundle. They render with the tenant's theme
 * and zh-CN locale through ConfigProvider.config({ holderRender }) (app/providers.tsx).
 */
export async function notify(
  level: 'success' | 'error' | 'info' | 'warning',
  content: string,
  durationSeconds?: number,
): Promise<void> {
  const { default: message } = await import('antd/es/message');
  message[level](content, durationSeconds);
}

/** Opens a confirm dialog (resolves once it is shown; onOk/onCancel report the choice). */
export async function confirmDialog(options: ModalFuncProps): Promise<void> {
  const { default: Modal } = await import('antd/es/modal');
  Modal.confirm(options);
}
