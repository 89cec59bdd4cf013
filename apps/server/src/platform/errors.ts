/** An error a user can act on: a stable code, an HTTP status and a zh-CN message. */
export class AppError extends Error {
  readonly code: string;
  readonly status: number;
  readonly details?: unknown;

  constructor(opts: { code: string; status: number; message: string; details?: unknown }) {
    super(opts.message);
    this.code = opts.code;
    this.status = opts.status;
    this.details = opts.details;
  }
}

export const createError = (opts: { code: string; status: number; message: string; details?: unknown }) =>
  new AppError(opts);

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

/** Errors every feature uses. */
export const commonErrors = {
  notFound: (message = '请求的资源不存在') => createError({ code: 'common.not_found', status: 404, message }),
  badRequest: (message: string, details?: unknown) =>
    createError({ code: 'common.bad_request', status: 400, message, details }),
  unauthorized: (message = '请先登录') => createError({ code: 'common.unauthorized', status: 401, message }),
  forbidden: (message = '没有权限执行此操作') =>
    createError({ code: 'common.forbidden', status: 403, message }),
  conflict: (message: string) => createError({ code: 'common.conflict', status: 409, message }),
  unprocessable: (code: string, message: string) => createError({ code, status: 422, message }),
};
