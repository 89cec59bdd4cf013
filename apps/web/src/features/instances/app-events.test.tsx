import { APP_EVENTS } from '@gpu/shared/constants';
import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { emitAppEvent, useAppEvents } from '../../lib/app-events';
import { INSTANCE_EVENTS } from './app-events';

describe('instance events', () => {
  it('calls the handler for each instance event while mounted, not after', () => {
    const handler = vi.fn();
    const { unmount } = renderHook(() => useAppEvents(INSTANCE_EVENTS, handler));
    emitAppEvent(APP_EVENTS.instanceCreated); // the subscribe page, after a create
    emitAppEvent(APP_EVENTS.instanceStopped);
    emitAppEvent(APP_EVENTS.balance); // not an instance event
    expect(handler).toHaveBeenCalledTimes(2);
    unmount();
    emitAppEvent(APP_EVENTS.instanceDeleted);
    expect(handler).toHaveBeenCalledTimes(2);
  });
});
