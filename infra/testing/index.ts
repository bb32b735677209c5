export { testDatabaseUrl, testDatabaseSuffix, testNamespace, truncate } from './environment';
export { memoryLogger, type MemoryLogger } from './memory-logger';
export { readEvents, publishEvent, eventually, consumerSettled } from './events';
export { CONDITION_BOUND_MS } from './bounds';
export { assertSchemaMatchesDatabase, parsePrismaSchema } from './schema-check';
export { testClock, type TestClock } from './clock';
export { testUserSnapshot } from './users';
export { ok, expectError, noContent } from './responses';
export { audienceRows } from './audience';
