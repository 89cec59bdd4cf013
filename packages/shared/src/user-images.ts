import { z } from 'zod';

/** 保存镜像 (issue 30): what users see of their private images, and what they send. */
export const USER_IMAGE_STATUSES = ['SAVING', 'AVAILABLE', 'FAILED', 'DELETING'] as const;
export type UserImageStatus = (typeof USER_IMAGE_STATUSES)[number];
export const USER_IMAGE_STATUS_NAMES = {
  SAVING: '保存中',
  AVAILABLE: '可用',
  FAILED: '失败',
  DELETING: '删除中',
} as const satisfies Record<UserImageStatus, string>;

/** Quota defaults (platform settings, editable by administrators). */
export const DEFAULT_USER_IMAGE_QUOTA = { maxCount: 5, maxTotalGb: 100 } as const;

/** POST /api/gpu/instance/save-image?instance_uuid=… */
export const saveImageRequestSchema = z.object({
  name: z
    .string({ message: '请填写镜像名称' })
    .trim()
    .min(1, '请填写镜像名称')
    .max(50, '镜像名称最多 50 个字符')
    .regex(/^[^\p{C}]+$/u, '镜像名称不能包含控制字符'),
  description: z
    .string({ message: '镜像描述格式不正确' })
    .trim()
    .max(200, '镜像描述最多 200 个字符')
    .default(''),
});
export type SaveImageRequest = z.infer<typeof saveImageRequestSchema>;

export const userImageSchema = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  status: z.enum(USER_IMAGE_STATUSES),
  progress: z.number(),
  sizeBytes: z.number().nullable(),
  /** What a create sends as its image. */
  image: z.string().nullable(),
  /** Null: usable on every host (pushed to the registry); else only on this one. */
  hostId: z.number().nullable(),
  hostName: z.string(),
  sourceInstanceId: z.number(),
  sourceInstanceName: z.string(),
  error: z.string().nullable(),
  createdAt: z.string(),
});
export type UserImage = z.infer<typeof userImageSchema>;

export const userImageQuotaSchema = z.object({
  maxCount: z
    .number({ message: '镜像数量上限必须是整数' })
    .int('镜像数量上限必须是整数')
    .min(0, '镜像数量上限不能小于 0')
    .max(1000, '镜像数量上限最多 1000'),
  maxTotalGb: z
    .number({ message: '镜像总容量上限必须是整数' })
    .int('镜像总容量上限必须是整数')
    .min(0, '镜像总容量上限不能小于 0')
    .max(100_000, '镜像总容量上限最多 100000 GB'),
});
export type UserImageQuota = z.infer<typeof userImageQuotaSchema>;

/** GET /api/user/images: the images, and the quota with what is used of it. */
export const userImageListSchema = z.object({
  items: z.array(userImageSchema),
  quota: userImageQuotaSchema,
  usedCount: z.number(),
  usedBytes: z.number(),
});
export type UserImageList = z.infer<typeof userImageListSchema>;
