import { z } from 'zod';

/** Keys one user may keep: every one is written into each instance's authorized_keys. */
export const SSH_KEYS_PER_USER = 20;
export const SSH_KEY_NAME_MAX = 32;
/** An OpenSSH public key line; an RSA key of 16384 bits is about 2,800 characters. */
export const SSH_PUBLIC_KEY_MAX = 8192;
/** The smallest RSA key accepted (OpenSSH itself refuses shorter ones). */
export const SSH_RSA_MIN_BITS = 2048;

/** POST /api/user/ssh-keys: a name and one OpenSSH public key line (the server parses and checks it). */
export const sshKeyCreateSchema = z
  .object({
    name: z
      .string({ message: '请填写公钥名称' })
      .trim()
      .min(1, '请填写公钥名称')
      .max(SSH_KEY_NAME_MAX, `公钥名称最多${SSH_KEY_NAME_MAX}个字符`),
    publicKey: z
      .string({ message: '请粘贴SSH公钥' })
      .trim()
      .min(1, '请粘贴SSH公钥')
      .max(SSH_PUBLIC_KEY_MAX, `SSH公钥过长（最多${SSH_PUBLIC_KEY_MAX}个字符）`),
  })
  .meta({
    examples: [
      {
        name: '笔记本',
        publicKey:
          'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me@laptop',
      },
    ],
  });
export type SshKeyCreate = z.infer<typeof sshKeyCreateSchema>;

export const sshKeySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    /** ssh-ed25519, ecdsa-sha2-nistp256, ssh-rsa, … */
    type: z.string(),
    bits: z.number().int(),
    /** OpenSSH's form: `SHA256:` and unpadded base64. */
    fingerprint: z.string(),
    /** The comment at the end of the key line, if any. */
    comment: z.string(),
    createdAt: z.string(),
  })
  .meta({
    examples: [
      {
        id: 3,
        name: '笔记本',
        type: 'ssh-ed25519',
        bits: 256,
        fingerprint: 'SHA256:2mJbZ4Hq8Jd1gX0cVwQ3rT5yU7iO9pA1sD3fG5hJ7kL',
        comment: 'zhangsan@laptop',
        createdAt: '2026-11-20T09:15:00.000+08:00',
      },
    ],
  });
export type SshKey = z.infer<typeof sshKeySchema>;

/** PUT /api/gpu/instance/:uuid/ssh: password sign-in on or off (applies at the next create or power on). */
export const instanceSshSettingsSchema = z.object({
  passwordAuth: z.boolean({ message: 'passwordAuth（密码登录）必须为 true 或 false' }),
});
export type InstanceSshSettings = z.infer<typeof instanceSshSettingsSchema>;
