import { createError } from '../../platform/errors.ts';

export const tenantAdminErrors = {
  notFound: () => createError({ code: 'tenants.not_found', status: 404, message: '租户不存在' }),
  codeTaken: (code: string) =>
    createError({ code: 'tenants.code_taken', status: 409, message: `租户编码「${code}」已存在` }),
  domainsTaken: (hosts: string[]) =>
    createError({
      code: 'tenants.domain_taken',
      status: 409,
      message: `参数 domains 无效：域名 ${hosts.join('、')} 已属于其他租户`,
    }),
  unknownRegions: (ids: number[]) =>
    createError({
      code: 'tenants.unknown_regions',
      status: 400,
      message: `参数 config.visibleRegionResources 无效：地区 ${ids.join('、')} 不存在`,
    }),
  unknownHosts: (ids: number[]) =>
    createError({
      code: 'tenants.unknown_hosts',
      status: 400,
      message: `参数 hostIds 无效：主机 ${ids.join('、')} 不存在`,
    }),
  operatorBrandingOnly: () =>
    createError({
      code: 'tenants.operator_branding_only',
      status: 403,
      message: '租户运营只能修改名称和品牌设置，不能修改租户编码、状态或域名',
    }),
  defaultCannotBeDisabled: () =>
    createError({
      code: 'tenants.default_disabled',
      status: 400,
      message: '参数 status 无效：默认租户不能停用',
    }),
  skuNotFound: () => createError({ code: 'tenants.sku_not_found', status: 404, message: 'GPU SKU 不存在' }),
  priceNotFound: () =>
    createError({ code: 'tenants.price_not_found', status: 404, message: '该租户未设置此 SKU 的价格' }),
  fileNotFound: () => createError({ code: 'tenants.file_not_found', status: 404, message: '文件不存在' }),
  badImage: () =>
    createError({
      code: 'tenants.bad_image',
      status: 400,
      message: '参数 dataUrl 无效：文件内容不是所声明的图片格式',
    }),
  imageTooLarge: () =>
    createError({
      code: 'tenants.image_too_large',
      status: 400,
      message: '参数 dataUrl 无效：图片不能超过 512 KB',
    }),
};
