export * from './constants.ts';
export * from './math.ts';
export * from './messages.ts';
export * from './rate.ts';
export * from './schemas/index.ts';
export * from './tiers.ts';
export * from './overlay-constants.ts';
