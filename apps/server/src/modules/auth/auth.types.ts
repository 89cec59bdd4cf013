import type { AccessTokenScope, AdminRole, RouteAccess } from '@gpu/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface AuthUser {
  id: number;
  tenantId: number;
  /** The session (`sid`) of the token that signed this request in; '' for an access token. */
  sessionId: string;
  /** The personal access token the request came with (issue 32); null for a browser session. */
  accessToken: { id: number; scopes: AccessTokenScope[] } | null;
}

export interface AuthAdmin {
  id: number;
  username: string;
  roles: string[];
  role: AdminRole;
  /** A tenant operator's tenant; null for a platform administrator. */
  tenantId: number | null;
  mustChangePassword: boolean;
  totpEnabled: boolean;
  /** The 2FA rule covers this role and the administrator has not enrolled yet. */
  mustEnrolTotp: boolean;
  sessionId: string;
}

/** Looks up whether the subject may still act: status and tokens-valid-after, read per request. */
export interface AuthLookups {
  findActiveUser(
    id: number,
    issuedAtMs: number,
    sid: string,
  ): Promise<Omit<AuthUser, 'sessionId' | 'accessToken'> | null>;
  findActiveAdmin(id: number, issuedAtMs: number, sid: string): Promise<Omit<AuthAdmin, 'sessionId'> | null>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * What a personal access token needs to call this customer route: a scope, or `session`
     * (browser sessions only). Unset: GET and HEAD need `read`, any other method is `session`.
     */
    access?: RouteAccess;
  }
  interface FastifyInstance {
    /** A valid user token of this request's tenant, else 401 (always runs at onRequest). */
    requireUser: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** A valid admin token with role ADMIN, else 401 (always runs at onRequest). */
    requireAdmin: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
  interface FastifyRequest {
    user: AuthUser | null;
    admin: AuthAdmin | null;
  }
}
