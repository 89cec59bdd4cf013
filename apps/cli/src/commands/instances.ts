import type { Image, Instance, InstanceStatus } from '@gpu/shared';
import { BILLING_TYPES, type BillingType, GPU_COUNT_MAX } from '@gpu/shared/constants';
import { INSTANCE_STATUSES } from '@gpu/shared/labels';
import { type Command, Option } from 'commander';
import { type Api, newIdempotencyKey } from '../api.ts';
import { type Ctx, contextOf } from '../context.ts';
import { listInstances, statusName, waitForStatus } from '../instances.ts';
import { say } from '../messages.ts';
import { billingName, type Column, note, printJson, printLine, shortTime, table } from '../output.ts';
import { int, intList } from '../parse.ts';

/** How long a command waits for a status unless --timeout says otherwise (seconds). */
export const DEFAULT_WAIT_S = 600;

interface CreateOptions {
  machine: number;
  image: string;
  gpus: number;
  name?: string;
  billing: BillingType;
  duration: number;
  voucher?: number;
  port?: number[];
  wait: boolean;
  timeout: number;
  idempotencyKey?: string;
}

/** A valid default name (letters, digits, hyphens): cli- and the local time to the second. */
function defaultName(at = new Date()) {
  const p = (n: number) => String(n).padStart(2, '0');
  const stamp = [at.getMonth() + 1, at.getDate(), at.getHours(), at.getMinutes(), at.getSeconds()].map(p);
  return `cli-${stamp.join('')}`;
}

/** --image takes the image's address, or its catalogue id (see `gpu images`). */
async function imageUrl(api: Api, image: string) {
  if (!/^\d+$/.test(image)) return image;
  const { imageList } = await api.get<{ imageList: Image[] }>('/api/gpu/images');
  return imageList.find((i) => i.id === Number(image))?.imageUrl ?? image;
}

const instanceColumns = (ctx: Ctx): Column<Instance>[] => [
  { zh: 'ID', en: 'ID', value: (i) => i.id, right: true },
  { zh: '名称', en: 'NAME', value: (i) => i.name },
  { zh: '状态', en: 'STATUS', value: (i) => statusName(i.status, ctx.lang) },
  { zh: 'GPU', en: 'GPU', value: (i) => `${i.gpuName} x${i.gpuCount}` },
  { zh: '地区', en: 'REGION', value: (i) => i.regionName },
  { zh: '计费', en: 'BILLING', value: (i) => billingName(i.billingType, ctx.lang) },
  { zh: '创建时间', en: 'CREATED', value: (i) => shortTime(i.createdAt) },
  { zh: 'SSH', en: 'SSH', value: (i) => i.sshCommand },
];

/** What a person reads after create / start: the instance in a few lines. */
export function printInstance(ctx: Ctx, inst: Instance) {
  if (ctx.json) return printJson(inst);
  printLine(`${inst.id}  ${inst.name}  ${statusName(inst.status, ctx.lang)}`);
  if (inst.sshCommand) printLine(inst.sshCommand);
}

/** gpu create, gpu ls. */
export function instanceCommands(program: Command) {
  program
    .command('create')
    .description('创建实例并等待运行 / create an instance and wait until it runs')
    .requiredOption('--machine <id>', '机器ID（gpu market 的第一列）/ machine id from `gpu market`', int(1))
    .requiredOption(
      '--image <image>',
      '镜像地址或镜像ID（gpu images）/ image address or id from `gpu images`',
    )
    .option('--gpus <n>', `GPU 数量 / GPU count (1-${GPU_COUNT_MAX})`, int(1, GPU_COUNT_MAX), 1)
    .option('--name <name>', '实例名称（字母、数字、连字符）/ instance name')
    .addOption(
      new Option('--billing <type>', '计费方式 / billing type').choices(BILLING_TYPES).default('hourly'),
    )
    .option('--duration <n>', '包日/包周/包月的时长 / periods for a package', int(1, 1000), 1)
    .option('--voucher <id>', '代金券编号 / voucher id', int(1))
    .option(
      '--port <port>',
      '额外开放的容器端口，可重复 / extra container port, repeatable',
      intList(1, 65535),
    )
    .option('--no-wait', '不等待运行 / do not wait for RUNNING')
    .option('--timeout <seconds>', '最长等待秒数 / longest wait', int(1, 86_400), DEFAULT_WAIT_S)
    .option(
      '--idempotency-key <key>',
      '幂等键：重复执行同一命令不会重复购买 / reuse to make a retried script never buy twice',
    )
    .action(async (opts: CreateOptions, cmd: Command) => {
      const ctx = contextOf(cmd);
      const api = ctx.api();
      const body = {
        machineId: opts.machine,
        instanceName: opts.name ?? defaultName(),
        image: await imageUrl(api, opts.image),
        gpuAmount: opts.gpus,
        billingType: opts.billing,
        duration: opts.duration,
        voucherId: opts.voucher ?? null,
        extraPorts: opts.port ?? [],
      };
      // One key for this purchase: a retry after a dropped answer gets the same instance back.
      const idempotencyKey = opts.idempotencyKey ?? newIdempotencyKey();
      const created = await api.post<Instance>('/api/gpu/instance/create', { body, idempotencyKey });
      note(`${say(ctx.lang, 'created')} ${created.id} (${created.name})`);
      const inst = opts.wait
        ? await waitForStatus(ctx, api, created.id, 'RUNNING', opts.timeout, created.status)
        : created;
      printInstance(ctx, inst);
    });

  program
    .command('ls')
    .alias('list')
    .description('我的实例 / my instances')
    .option('-a, --all', '包括已释放的 / include released ones')
    .addOption(new Option('--status <status>', '按状态筛选 / filter by status').choices(INSTANCE_STATUSES))
    .option('--page <n>', '页码 / page', int(1, 10_000), 1)
    .option('--size <n>', '每页条数 / page size (1-100)', int(1, 100), 100)
    .action(
      async (opts: { all?: boolean; status?: InstanceStatus; page: number; size: number }, cmd: Command) => {
        const ctx = contextOf(cmd);
        const page = await listInstances(ctx.api(), opts);
        if (ctx.json) return printJson(page);
        printLine(
          page.list.length ? table(page.list, instanceColumns(ctx), ctx.lang) : say(ctx.lang, 'empty'),
        );
        if (page.total > page.list.length) printLine(`${say(ctx.lang, 'total')} ${page.total}`);
      },
    );
}
