/**
 * The images offered for overseas instances (images.platform_type `vast.ai`): public Docker Hub
 * images vast.ai hosts pull. An offer shows those whose CUDA its driver runs (cuda ≤ the offer's).
 */
export const VASTAI_IMAGES = [
  {
    imageName: 'PyTorch 2.4.0',
    imageUrl: 'pytorch/pytorch:2.4.0-cuda12.1-cudnn9-runtime',
    frameworkType: 'pytorch',
    frameworkVersion: '2.4.0',
    pythonVersion: '3.11',
    cudaVersion: '12.1',
  },
  {
    imageName: 'vast.ai base',
    imageUrl: 'vastai/base-image:cuda-12.4.1-auto',
    frameworkType: 'base',
    frameworkVersion: '',
    pythonVersion: '3.10',
    cudaVersion: '12.4',
  },
  {
    imageName: 'CUDA 12.4 devel',
    imageUrl: 'nvidia/cuda:12.4.1-devel-ubuntu22.04',
    frameworkType: 'base',
    frameworkVersion: '',
    pythonVersion: '',
    cudaVersion: '12.4',
  },
] as const;
