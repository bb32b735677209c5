export * from './common';
export * from './auth';
export * from './events';
export * from './social';
export * from './media';
export * from './places';
export * from './sessions';
export * from './messaging';
