import { hostId, modelMemory } from './fleet.ts';
import { at, PER, SCALE, type SeedContext } from './plan.ts';

const BUCKETS = (SCALE.rollupDays * 86_400) / 300;

/**
 * 30 days of five-minute rollups for running instance q × 200 (slot 0 of every tenth host, a GPU
 * instance): 8,640 rows each. Only every tenth host's: the full 20,000 would be 173 million rows,
 * far past "minutes on two cores", and no benchmarked list reads them (see the report).
 */
export function rollupsSql(ctx: SeedContext, lo: number, hi: number) {
  const hostsPer = SCALE.rollupHostsPerInstance;
  const util = `((q * 31 + b * 17) % 100)`;
  return `
    insert into instance_sample_rollups (instance_id, bucket, host_id, gpu_indexes, gpu_util, gpu_util_max,
      gpu_mem_used_mib, gpu_mem_total_mib, cpu_percent, mem_used_bytes, mem_limit_bytes, disk_used_bytes,
      disk_limit_bytes, samples)
    select ${ctx.base.instances} + q * ${hostsPer * PER.runningPerHost},
      date_bin('5 minutes', ${at(ctx)}, timestamptz '2000-01-01') - (${BUCKETS} - b) * interval '5 minutes',
      ${hostId(ctx, `q * ${hostsPer}`)}, array[0]::smallint[], array[${util}]::real[], least(100, ${util} + 7)::smallint,
      array[${util} * ${modelMemory(`q * ${hostsPer}`)} * 10]::real[], array[${modelMemory(`q * ${hostsPer}`)} * 1024],
      (${util} / 2)::real, (8 + b % 64) * 1073741824::bigint, 137438953472, (2 + b / 1000) * 1073741824::bigint,
      85899345920, 20
    from generate_series(${lo}, ${hi - 1}) q
    cross join generate_series(0, ${BUCKETS - 1}) b`;
}
