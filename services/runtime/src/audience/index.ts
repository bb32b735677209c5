export { AUDIENCE_PARTS, audienceMigrationDirs, audienceTables, type AudiencePart } from './tables';
export { applyPerson, personRow, peopleByIds, personById, type Person, type PersonExtras } from './people';
export { startAudience, audienceDurables, graphHandlers, type AudienceOptions } from './consumer';
export { accessOf, accessToMany, audienceSql, blockedBetween, canSee, decideAccess, type Access, type AccessFacts, type BlocksSource } from './policy';
export { tokenVersionCheck, type RevocationCheck } from './revocation';
export { PeopleCache, personOfSnapshot, type CachedPerson } from './people-cache';
export { anyErased, erasedHash, forgetEventsNaming, forgetPerson, idsMentioned, markErased } from './erased';
export { ERASING_SERVICES, startErasure, type ErasingService, type ErasureOptions } from './erasure';
export { EXPORTING_SERVICES, exportPartName, exportParts, startExportContributor, type ExportContributorOptions, type ExportingService } from './export';
