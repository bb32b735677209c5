import { bearerAuth, type Authenticate } from '../auth/authenticate';
import type { SqlClient } from '../db/sql';
import type { PeopleCache } from './people-cache';
import { tokenVersionCheck } from './revocation';
import type { TokenVerifier } from '../auth/tokens';

/**
 * bearerAuth with the token-version check of the audience module's people
 * table: what every service but auth uses. A service that keeps a PeopleCache
 * (and passes it to startAudience, which keeps it current) checks from Redis.
 */
export function audienceAuth(tokens: TokenVerifier, db: SqlClient, people?: PeopleCache): Authenticate {
  return bearerAuth(tokens, tokenVersionCheck(db, people));
}
