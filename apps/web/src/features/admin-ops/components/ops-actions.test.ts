import { INSTANCE_STATUSES } from '@gpu/shared/labels';
import { describe, expect, it } from 'vitest';
import { opsActionsFor } from './OpsInstanceTable';

describe('admin actions offered per instance state (the lifecycle rules)', () => {
  it('user management: power off a running one, start or reset a stopped one, terminate either', () => {
    const offered = Object.fromEntries(
      INSTANCE_STATUSES.map((s) => [s, opsActionsFor({ status: s }, false)]),
    );
    expect(offered).toEqual({
      CREATING: [],
      RUNNING: ['power-off', 'terminate'],
      STOPPING: [],
      STOPPED: ['start', 'terminate', 'reset-system'],
      STARTING: [],
      RELEASING: [],
      RELEASED: [],
      RESETTING: [],
      SAVING_IMAGE: [],
      FAILED: [],
    });
  });

  it('instance monitor: only force-stop, only while running', () => {
    expect(opsActionsFor({ status: 'RUNNING' }, true)).toEqual(['force-stop']);
    expect(opsActionsFor({ status: 'STOPPED' }, true)).toEqual([]);
  });
});
