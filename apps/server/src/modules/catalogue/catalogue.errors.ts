import { createError } from '../../platform/errors.ts';

export const catalogueErrors = {
  regionNotFound: () =>
    createError({ code: 'catalogue.region_not_found', status: 404, message: '地区不存在' }),
  regionTaken: () =>
    createError({ code: 'catalogue.region_taken', status: 409, message: '地区名称或代码已存在' }),
  gpuTypeNotInRegion: (model: string) =>
    createError({
      code: 'catalogue.gpu_type_not_in_region',
      status: 422,
      message: `该地区的主机没有 ${model} 的 SKU`,
    }),
  imageNotFound: () => createError({ code: 'catalogue.image_not_found', status: 404, message: '镜像不存在' }),
  imageTaken: (url: string) =>
    createError({ code: 'catalogue.image_taken', status: 409, message: `镜像地址「${url}」已存在` }),
  skuNotFound: () => createError({ code: 'catalogue.sku_not_found', status: 404, message: 'GPU SKU 不存在' }),
  skuHostNotFound: () =>
    createError({
      code: 'catalogue.sku_host_not_found',
      status: 400,
      message: '参数 hostId 无效：主机不存在',
    }),
  skuTaken: (model: string) =>
    createError({
      code: 'catalogue.sku_taken',
      status: 409,
      message: `该主机已有 ${model} 的 SKU，请直接编辑`,
    }),
  skuInUse: () =>
    createError({
      code: 'catalogue.sku_in_use',
      status: 409,
      message: '该 SKU 已有实例记录，不能删除，请改为下架',
    }),
};
