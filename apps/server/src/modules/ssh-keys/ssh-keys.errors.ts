import { SSH_KEYS_PER_USER, SSH_RSA_MIN_BITS } from '@gpu/shared';
import { createError } from '../../platform/errors.ts';

const invalid = (code: string, message: string) =>
  createError({ code: `ssh_keys.${code}`, status: 422, message });

export const sshKeyErrors = {
  privateKey: () =>
    invalid('private_key', 'SSH公钥（publicKey）无效：这是私钥，请勿上传私钥，请粘贴 .pub 文件中的公钥'),
  multiple: () => invalid('multiple', 'SSH公钥（publicKey）无效：一次只能添加一个公钥（一行）'),
  unsupported: () =>
    invalid(
      'unsupported',
      'SSH公钥（publicKey）无效：仅支持 OpenSSH 格式的 ssh-ed25519、ecdsa-sha2-nistp256/384/521 和 ssh-rsa 公钥',
    ),
  malformed: () => invalid('malformed', 'SSH公钥（publicKey）无效：无法解析，请粘贴完整的一行公钥'),
  rsaTooShort: (bits: number) =>
    invalid(
      'rsa_too_short',
      `SSH公钥（publicKey）无效：RSA 公钥至少 ${SSH_RSA_MIN_BITS} 位，当前为 ${bits} 位`,
    ),
  duplicate: () =>
    createError({ code: 'ssh_keys.duplicate', status: 409, message: '该SSH公钥已添加过（指纹相同）' }),
  limit: () =>
    createError({
      code: 'ssh_keys.limit',
      status: 422,
      message: `每个账号最多添加 ${SSH_KEYS_PER_USER} 个SSH公钥，请先删除不用的公钥`,
    }),
  notFound: () => createError({ code: 'ssh_keys.not_found', status: 404, message: 'SSH公钥不存在' }),
};
