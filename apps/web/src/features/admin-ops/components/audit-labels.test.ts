import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from '@gpu/shared/audit';
import { describe, expect, it } from 'vitest';
import { actionName, fieldName, targetName, targetQuery, valueName } from './audit-labels';

const CHINESE = /[\u4e00-\u9fff]/;

describe('audit labels', () => {
  // AUDIT_ACTIONS is what recordAudit accepts (its parameter type), so this covers every code the
  // server can write; the same for the target types recordAudit's target is typed over.
  it.each(AUDIT_ACTIONS)('action %s has a Chinese name', (code) => {
    expect(actionName(code)).not.toBe(code);
    expect(actionName(code)).toMatch(CHINESE);
  });

  it.each(AUDIT_TARGET_TYPES)('target type %s has a Chinese name', (type) => {
    expect(targetName(type)).toMatch(CHINESE);
    expect(targetName(`${type}:7`)).toMatch(/^[^:]+ #7$/);
  });

  it('names targets and fields, and keeps what it does not know as written', () => {
    expect(targetName('instance:12')).toBe('实例 #12');
    expect(targetName('gpu-sku:*')).toBe('全部GPU 规格');
    expect(targetName('balance')).toBe('余额检查');
    expect(targetName('admin', 'admin.login')).toBe('管理员账号 admin');
    expect(targetName('admin:7', 'admin.password_reset')).toBe('管理员 #7');
    expect(targetName(null)).toBe('-');
    expect(targetName('weird:1')).toBe('weird:1');
    expect(actionName('old.code')).toBe('old.code');
    expect(fieldName('faceAmount')).toBe('面额');
    expect(fieldName('reason')).toBe('原因');
    expect(fieldName('someNewKey')).toBe('someNewKey');
    expect(valueName('status', 'RUNNING')).toBe('运行中');
    expect(valueName('reason', 'at_limit')).toBe('已达每人限领');
    expect(valueName('type', 'phones')).toBe('指定手机号');
    expect(valueName('enabled', true)).toBe('是');
    expect(valueName('reason', '主机维护')).toBe('主机维护');
    expect(valueName(undefined, 42)).toBe('42');
  });

  it('reads a Chinese target filter as the stored prefix', () => {
    expect(targetQuery('实例 #12')).toBe('instance:12');
    expect(targetQuery('实例12')).toBe('instance:12');
    expect(targetQuery(' 用户 ')).toBe('user:');
    expect(targetQuery('代金券配置 #3')).toBe('voucher-config:3');
    expect(targetQuery('GPU 规格 #4')).toBe('gpu-sku:4');
    expect(targetQuery('instance:9')).toBe('instance:9');
    expect(targetQuery('实例abc')).toBe('实例abc');
  });
});
