import { z } from 'zod';
import { INSTANCE_CONTAINER_PORTS } from './hosts.ts';

/** Container ports a user may publish besides SSH and JupyterLab (issue 30). */
export const INSTANCE_EXTRA_PORTS_MAX = 3;

export const extraPortsMessages = {
  notInteger: '额外端口必须是 1–65535 的整数',
  tooMany: `额外端口最多 ${INSTANCE_EXTRA_PORTS_MAX} 个`,
  reserved: `额外端口不能是 ${INSTANCE_CONTAINER_PORTS.join(' 或 ')}（已用于 SSH 和 JupyterLab）`,
  duplicate: '额外端口不能重复',
} as const;

const containerPortSchema = z
  .number({ message: extraPortsMessages.notInteger })
  .int(extraPortsMessages.notInteger)
  .min(1, extraPortsMessages.notInteger)
  .max(65_535, extraPortsMessages.notInteger);

/** 0–3 container ports, none of SSH's or JupyterLab's, no repeats (order kept: the console's order). */
export const extraPortsSchema = z
  .array(containerPortSchema, { message: extraPortsMessages.notInteger })
  .max(INSTANCE_EXTRA_PORTS_MAX, extraPortsMessages.tooMany)
  .superRefine((ports, ctx) => {
    const reserved: readonly number[] = INSTANCE_CONTAINER_PORTS;
    ports.forEach((p, i) => {
      if (reserved.includes(p))
        ctx.addIssue({ code: 'custom', message: extraPortsMessages.reserved, path: [i] });
      else if (ports.indexOf(p) !== i)
        ctx.addIssue({ code: 'custom', message: extraPortsMessages.duplicate, path: [i] });
    });
  });

/** PUT /api/gpu/instance/:uuid/ports: the whole list (powered off only; applies when the container is next made). */
export const instancePortsRequestSchema = z.object({ ports: extraPortsSchema });
export type InstancePortsRequest = z.infer<typeof instancePortsRequestSchema>;

/** One extra port as the owner sees it: its link only while the instance runs. */
export const instanceExtraPortSchema = z.object({
  containerPort: z.number().int(),
  hostPort: z.number().int(),
  url: z.string().nullable(),
});
export type InstanceExtraPort = z.infer<typeof instanceExtraPortSchema>;
