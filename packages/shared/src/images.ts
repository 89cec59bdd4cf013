import { z } from 'zod';

export const FRAMEWORK_TYPES = ['pytorch', 'tensorflow', 'base'] as const;
export const PLATFORM_TYPES = ['local', 'vast.ai', 'autodl'] as const;

/** An image of the catalogue (SPEC.md §3). */
export const imageSchema = z
  .object({
    id: z.number().int(),
    imageName: z.string(),
    imageUrl: z.string(),
    frameworkType: z.enum(FRAMEWORK_TYPES),
    frameworkVersion: z.string(),
    pythonVersion: z.string(),
    cudaVersion: z.string(),
    cannVersion: z.string(),
    musaVersion: z.string(),
    osInfo: z.string(),
    gpuBrand: z.string(),
    platformType: z.string(),
    description: z.string(),
  })
  .meta({
    examples: [
      {
        id: 1,
        imageName: 'PyTorch 2.5.1 / Python 3.12 / CUDA 12.4',
        imageUrl: 'registry.gpu.local/pytorch:2.5.1-py3.12-cuda12.4',
        frameworkType: 'pytorch',
        frameworkVersion: '2.5.1',
        pythonVersion: '3.12',
        cudaVersion: '12.4',
        cannVersion: '',
        musaVersion: '',
        osInfo: 'Ubuntu 22.04',
        gpuBrand: 'NVIDIA',
        platformType: 'local',
        description: 'PyTorch 官方镜像，预装 JupyterLab',
      },
    ],
  });
export type Image = z.infer<typeof imageSchema>;

/** framework → version → Python version → images. */
export type ImageMap = Record<string, Record<string, Record<string, Image[]>>>;

export const imageListSchema = z.object({
  imageMap: z.record(z.string(), z.record(z.string(), z.record(z.string(), z.array(imageSchema)))),
  imageList: z.array(imageSchema),
});

export const imageQuerySchema = z.object({
  gpuBrand: z.string().trim().max(32).optional(),
  platformType: z.enum(PLATFORM_TYPES, { message: '平台类型只能是 local、vast.ai 或 autodl' }).optional(),
});
