import { describe, expect, it } from 'vitest';
import { parseNvidiaSmi } from './nvidia-smi.ts';

describe('nvidia-smi output', () => {
  it('reads index, uuid, model, memory, driver and CUDA version', () => {
    const r = parseNvidiaSmi(
      '0, GPU-aaaa, NVIDIA GeForce RTX 4090, 24564, 550.120\n1, GPU-bbbb, NVIDIA GeForce RTX 4090, 24564, 550.120\nCUDA Version: 12.4\n',
    );
    expect(r).toEqual({
      gpus: [
        { index: 0, uuid: 'GPU-aaaa', model: 'RTX 4090', memoryGb: 24 },
        { index: 1, uuid: 'GPU-bbbb', model: 'RTX 4090', memoryGb: 24 },
      ],
      driverVersion: '550.120',
      cudaVersion: '12.4',
    });
  });
  it('ignores noise and an empty answer', () => {
    expect(parseNvidiaSmi('No devices were found\n')).toEqual({
      gpus: [],
      driverVersion: '',
      cudaVersion: '',
    });
  });
});
