import { PHONE_PATTERN } from '@gpu/shared/auth';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { notify } from '../../lib/feedback';
import { t } from '../../locales/zh-CN';
import { checkPhone } from './api/check-phone';
import { authKeys } from './api/keys';
import { type PhoneAvailability, phoneAvailability } from './register-rules';

/** The phone is checked once typing has paused this long. */
export const PHONE_CHECK_DEBOUNCE_MS = 350;

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const id = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(id);
  }, [value, ms]);
  return settled;
}

/**
 * The register screen's phone availability (SPEC.md §4): checking, available, taken or unknown
 * (the check failed: 'check phone failed, try later' is shown and `recheck` tries again).
 */
export function usePhoneAvailability(rawPhone: string | undefined): {
  state: PhoneAvailability;
  recheck: () => void;
} {
  const phone = (rawPhone ?? '').trim();
  const phoneValid = PHONE_PATTERN.test(phone);
  const settled = useDebounced(phone, PHONE_CHECK_DEBOUNCE_MS);
  const query = useQuery({
    queryKey: authKeys.checkPhone(settled),
    queryFn: ({ signal }) => checkPhone(settled, signal),
    enabled: phoneValid && settled === phone,
    retry: false,
    staleTime: 10_000,
  });

  useEffect(() => {
    if (query.errorUpdatedAt) void notify('warning', t.register.checkFailed);
  }, [query.errorUpdatedAt]);

  const state = phoneAvailability({
    phoneValid,
    debouncing: settled !== phone,
    fetching: query.isFetching,
    failed: query.isError,
    available: query.data,
  });
  return { state, recheck: () => void query.refetch() };
}
