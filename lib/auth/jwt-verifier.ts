import type { errors, JWTVerifyGetKey } from 'jose';
import { lazyModule } from '../core/lazy-module';
import { jose } from './jose.module';
import type { AuthInfo } from '../core/auth-info';
import { authInfoOf, type ScopesOf } from './auth-info.mapper';
import { TokenRejectedError } from './token-errors';

/** What a JWT access token is checked against. */
export interface JwtChecks {
  readonly issuer: string;
  readonly audience: string;
  readonly algorithms: readonly string[];
  readonly clockToleranceSec: number;
  readonly now: () => number;
  readonly scopesOf: ScopesOf;
}

/**
 * `typ` values an access token may carry: RFC 9068's `at+jwt` (in either spelling), and `JWT` or
 * none, which many servers still send. Anything else (an ID token's `id+jwt`, a DPoP proof, a
 * logout token) is another kind of JWT, refused even when its signature and claims would pass.
 */
const ACCESS_TOKEN_TYPES: ReadonlySet<string> = new Set(['at+jwt', 'application/at+jwt', 'jwt']);

/** What each refusal of jose's says to the client: never the token, never the key. */
const descriptions = lazyModule((): ReadonlyArray<readonly [Function, string]> => {
  const { errors: e } = jose();
  return [
    [e.JWTExpired, 'The access token expired'],
    [e.JWKSNoMatchingKey, 'The access token is signed with a key the authorization server does not publish'],
    [e.JOSEAlgNotAllowed, 'The access token is signed with an algorithm this resource does not accept'],
    [e.JWSSignatureVerificationFailed, 'The access token signature is invalid'],
  ];
});

/**
 * Verifies a JWT access token (RFC 9068): its signature with the authorization server's keys
 * and one of the allowed algorithms, its issuer, an audience equal to this resource's identifier
 * (RFC 8707: a token minted for another resource is refused), `exp` (required), `nbf` and `iat`
 * (not in the future) within the clock tolerance, and its `typ`. Rejects with `TokenRejectedError`, or with the authorization
 * server's unavailability when its keys could not be fetched.
 */
export async function verifyJwt(token: string, key: JWTVerifyGetKey, checks: JwtChecks): Promise<AuthInfo> {
  try {
    const { payload, protectedHeader } = await jose().jwtVerify(token, key, {
      issuer: checks.issuer,
      audience: checks.audience,
      algorithms: [...checks.algorithms],
      clockTolerance: checks.clockToleranceSec,
      currentDate: new Date(checks.now()),
      requiredClaims: ['exp'],
    });
    // jose checks `iat` only against a maximum age: a token minted in the future (a forged or
    // misconfigured clock) would otherwise pass, and outlive its intended lifetime.
    if (typeof payload.iat === 'number' && payload.iat > checks.now() / 1000 + checks.clockToleranceSec) {
      throw new TokenRejectedError('The access token was issued in the future', 'iat in the future');
    }
    const typ = protectedHeader.typ?.toLowerCase();
    if (typ !== undefined && !ACCESS_TOKEN_TYPES.has(typ)) throw new TokenRejectedError('The token is not an access token', `typ ${protectedHeader.typ}`);
    return authInfoOf(payload as Record<string, unknown>, checks.issuer, checks.scopesOf);
  } catch (error) {
    if (!(error instanceof jose().errors.JOSEError)) throw error;
    throw new TokenRejectedError(describe(error), error.code, { cause: error });
  }
}

function describe(error: errors.JOSEError): string {
  if (error instanceof jose().errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return 'The access token was not issued for this resource';
    if (error.claim === 'iss') return 'The access token was not issued by the expected authorization server';
    if (error.claim === 'nbf') return 'The access token is not valid yet';
  }
  return descriptions().find(([type]) => error instanceof type)?.[1] ?? 'The access token is invalid';
}
