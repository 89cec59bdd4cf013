import { z } from 'zod';

/** Zod's own messages in Chinese, for every rule that does not carry a message of its own. */
export function useChineseZodMessages(): void {
  z.config(z.locales.zhCN());
}
