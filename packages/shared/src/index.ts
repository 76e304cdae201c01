export * from './constants.ts';
export * from './format.ts';
export * from './math.ts';
export * from './messages.ts';
export * from './schemas.ts';
export * from './tiers.ts';
