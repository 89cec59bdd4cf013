import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGpuQuery, parseNvidiaSmi } from './nvidia-smi.ts';

/** Real output of an H100 (fixtures/nvidia-smi/README.md): its inventory line and a usage sample. */
const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/nvidia-smi/${name}`, import.meta.url), 'utf8');
const inventory = fixture('query.csv');
const usage = fixture('util.csv');

/** GPU_QUERY_COMMAND's line for that GPU, put together from the two captured answers' fields. */
function queryLineOfFixtures(): string {
  const [index, uuid] = inventory
    .trim()
    .split(',')
    .map((c) => c.trim());
  const [, util, used, total] = usage
    .trim()
    .split(',')
    .map((c) => c.trim());
  return `${index}, ${uuid}, ${util}, ${used}, ${total}\n`;
}

describe('nvidia-smi GPU query (monitoring samples)', () => {
  it('reads the H100’s figures: index, uuid, utilisation, memory used and total in MiB', () => {
    expect(parseGpuQuery(queryLineOfFixtures())).toEqual([
      {
        index: 0,
        uuid: 'GPU-0eb62837-c62f-164e-80b7-84f0fb6b459d',
        util: 0,
        memUsedMib: 0,
        memTotalMib: 81559,
      },
    ]);
    // The same board's inventory line still parses as the probe reads it.
    expect(parseNvidiaSmi(inventory).gpus[0]).toMatchObject({ index: 0, memoryGb: 80 });
  });

  it('reads several busy GPUs in index order, whatever order they come in', () => {
    const out = [
      '1, GPU-b, 97, 80211, 81559',
      '0, GPU-a, 43, 10240, 81559',
      '2, GPU-c, 100, 81559, 81559',
    ].join('\r\n');
    expect(parseGpuQuery(out).map((g) => [g.index, g.util, g.memUsedMib])).toEqual([
      [0, 43, 10240],
      [1, 97, 80211],
      [2, 100, 81559],
    ]);
  });

  it('counts [N/A] and [Not Supported] as 0 and skips lines that are not a GPU', () => {
    const out = [
      'WARNING: infoROM is corrupted at gpu 0000:00:06.0',
      '0, GPU-a, [N/A], [N/A], 81559',
      '1, MIG-x, [Not Supported], 1024, [Not Supported]',
      '',
      'No devices were found',
      'x, GPU-z, 1, 2, 3',
    ].join('\n');
    expect(parseGpuQuery(out)).toEqual([
      { index: 0, uuid: 'GPU-a', util: 0, memUsedMib: 0, memTotalMib: 81559 },
      { index: 1, uuid: 'MIG-x', util: 0, memUsedMib: 1024, memTotalMib: 0 },
    ]);
    expect(parseGpuQuery('')).toEqual([]);
  });

  it('never reports more than 100 % nor a negative or fractional figure', () => {
    expect(parseGpuQuery('0, GPU-a, 250, -5, 81559.6')).toEqual([
      { index: 0, uuid: 'GPU-a', util: 100, memUsedMib: 0, memTotalMib: 81560 },
    ]);
  });
});
